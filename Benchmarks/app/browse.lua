-- wrk script for Benchmarks/app/load.py: each wrk thread is one signed-in user, whose
-- connections cycle through that user's Main and measurement pages. load.py passes the
-- users as SONDE_COOKIE_N (the session cookie) and SONDE_PATHS_N (comma-separated paths).
local count = 0

function setup(thread)
  count = count + 1
  thread:set("cookie", os.getenv("SONDE_COOKIE_" .. count))
  thread:set("paths", os.getenv("SONDE_PATHS_" .. count))
end

function init(args)
  list = {}
  for path in string.gmatch(paths, "[^,]+") do
    table.insert(list, path)
  end
  position = 0
end

function request()
  position = position % #list + 1
  return wrk.format("GET", list[position], { ["Cookie"] = cookie })
end

function response(status, headers, body)
  if status ~= 200 then
    print("unexpected status " .. status)
  end
end
