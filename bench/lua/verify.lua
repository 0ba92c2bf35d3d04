-- POST /api/turismo/verify-visit: fresh users, fresh codes. Request i is
-- user u = i mod U with the guide code of attraction (u + k) mod 17, k = i div U:
-- each user verifies each attraction once, and requests in flight belong to
-- different users and attractions. args: salt, users file ("id token"
-- lines), codes file (one per attraction)
local c = dofile(os.getenv("BENCH_LUA_DIR") .. "/common.lua")
local i = -1
local ids, tokens, codes = {}, {}, nil

function init(args)
  c.salt = tonumber(args[1]) or 0
  ids, tokens = c.users(args[2])
  codes = c.lines(args[3])
end

function request()
  i = i + 1
  local n = #ids
  local u = i % n
  local k = math.floor(i / n)
  local code = codes[(u + k) % #codes + 1]
  return wrk.format("POST", "/api/turismo/verify-visit", {
    ["Content-Type"] = "application/json",
    ["Authorization"] = tokens[u + 1],
    ["X-Forwarded-For"] = c.ip(i),
  }, '{"code":"' .. code .. '","userId":"' .. ids[u + 1] .. '"}')
end

done = c.done
