-- POST /api/turismo/ticket with a new share code and email each time.
-- args: salt, run prefix
local c = dofile(os.getenv("BENCH_LUA_DIR") .. "/common.lua")
local i = 0
local prefix

function init(args)
  c.salt = tonumber(args[1]) or 0
  prefix = args[2]
end

function request()
  i = i + 1
  local code = prefix .. "-" .. i
  return wrk.format("POST", "/api/turismo/ticket", {
    ["Content-Type"] = "application/json",
    ["X-Forwarded-For"] = c.ip(i),
  }, '{"name":"Viajera de prueba","email":"' .. code ..
    '@ejemplo.mx","shareCode":"' .. code .. '","phone":"+52 33 1234 5678"}')
end

done = c.done
