-- GET /api/turismo/og/<code> with a code not asked for before in this run,
-- so every card is rendered (nothing cached). args: salt, codes file
local c = dofile(os.getenv("BENCH_LUA_DIR") .. "/common.lua")
local i = 0
local codes

function init(args)
  c.salt = tonumber(args[1]) or 0
  codes = c.lines(args[2])
end

function request()
  i = i + 1
  local code = codes[(i - 1) % #codes + 1]
  return wrk.format("GET", "/api/turismo/og/" .. code,
    { ["X-Forwarded-For"] = c.ip(i) })
end

done = c.done
