-- GET of the URL's path, each request from another client address.
-- args: salt
local c = dofile(os.getenv("BENCH_LUA_DIR") .. "/common.lua")
local i = 0

function init(args)
  c.salt = tonumber(args[1]) or 0
end

function request()
  i = i + 1
  return wrk.format("GET", nil, { ["X-Forwarded-For"] = c.ip(i) })
end

done = c.done
