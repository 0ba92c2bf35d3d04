-- POST /api/turismo/rate-visit for users who verified every attraction
-- (seeded), same spread as verify.lua. args: salt, users file, slugs file
local c = dofile(os.getenv("BENCH_LUA_DIR") .. "/common.lua")
local i = -1
local ids, tokens, slugs = {}, {}, nil

function init(args)
  c.salt = tonumber(args[1]) or 0
  ids, tokens = c.users(args[2])
  slugs = c.lines(args[3])
end

function request()
  i = i + 1
  local n = #ids
  local u = i % n
  local slug = slugs[(u + math.floor(i / n)) % #slugs + 1]
  return wrk.format("POST", "/api/turismo/rate-visit", {
    ["Content-Type"] = "application/json",
    ["Authorization"] = tokens[u + 1],
    ["X-Forwarded-For"] = c.ip(i),
  }, '{"userId":"' .. ids[u + 1] .. '","atractivoSlug":"' .. slug ..
    '","rating":' .. (i % 5 + 1) .. ',"notes":"Muy recomendable"}')
end

done = c.done
