-- wrk script: POSTs the file named by WRK_BODY_FILE as JSON, with an optional extra header
-- WRK_HEADER="name: value", and prints one JSON line of results when done.
local f = assert(io.open(os.getenv("WRK_BODY_FILE"), "rb"))
wrk.method = "POST"
wrk.body = f:read("*a")
f:close()
wrk.headers["Content-Type"] = "application/json"
local extra = os.getenv("WRK_HEADER")
if extra and extra ~= "" then
  local name, value = extra:match("^([^:]+):%s*(.*)$")
  wrk.headers[name] = value
end

done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    '\nWRK_JSON {"requests":%d,"durationUs":%d,"non2xx":%d,"connect":%d,"read":%d,"write":%d,"timeout":%d,"p50":%.3f,"p99":%.3f,"max":%.3f,"mean":%.3f}\n',
    summary.requests, summary.duration, e.status, e.connect, e.read, e.write, e.timeout,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000, latency.mean / 1000))
end
