-- Shared by the load scripts (loaded with dofile): a per-request client
-- address, so per-IP limits see many clients (TRUST_PROXY=true), and a done()
-- that prints wrk's figures as one JSON line for bench/load.ts.
local M = {}

M.salt = 0

-- A distinct address for request i of this run: 10.<salt>.<hi>.<lo>, with
-- salt varying per run so runs within one minute do not share addresses.
function M.ip(i)
  return string.format("10.%d.%d.%d", (M.salt + math.floor(i / 65536)) % 256,
    math.floor(i / 256) % 256, i % 256)
end

function M.lines(path)
  local out = {}
  for line in io.lines(path) do
    if line ~= "" then out[#out + 1] = line end
  end
  return out
end

-- The "id token" lines of a users file: the ids, and the tokens as
-- Authorization header values.
function M.users(path)
  local ids, tokens = {}, {}
  for _, line in ipairs(M.lines(path)) do
    local id, token = line:match("^(%S+) (%S+)$")
    ids[#ids + 1] = id
    tokens[#tokens + 1] = "Bearer " .. token
  end
  return ids, tokens
end

function M.done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    '\nWRK_JSON {"requests":%d,"duration_us":%d,"bytes":%d,' ..
    '"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d,' ..
    '"p50_us":%d,"p90_us":%d,"p99_us":%d,"max_us":%d,"mean_us":%.1f}\n',
    summary.requests, summary.duration, summary.bytes,
    e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99),
    latency.max, latency.mean))
end

return M
