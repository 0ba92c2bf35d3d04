-- POST /api/chat, each request from another client address (the chat's own
-- limit is 20 a minute per IP). args: salt
local c = dofile(os.getenv("BENCH_LUA_DIR") .. "/common.lua")
local i = 0

function init(args)
  c.salt = tonumber(args[1]) or 0
end

function request()
  i = i + 1
  return wrk.format("POST", "/api/chat", {
    ["Content-Type"] = "application/json",
    ["X-Forwarded-For"] = c.ip(i),
  }, '{"message":"¿Qué puedo visitar hoy en la tarde?"}')
end

done = c.done
