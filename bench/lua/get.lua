-- GET of the URL's path, each request from another client address, or from
-- a pool of addresses taken in turn.
-- args: salt [pool size]
local c = dofile(os.getenv("BENCH_LUA_DIR") .. "/common.lua")
local i = 0
local pool = nil

function init(args)
  c.salt = tonumber(args[1]) or 0
  pool = tonumber(args[2])
end

function request()
  i = i + 1
  return wrk.format("GET", nil,
    { ["X-Forwarded-For"] = c.ip(pool and (i % pool) or i) })
end

done = c.done
