"""20,000 half-sent requests against `sonde serve` under `ulimit -n 4096` (issue 44, item 5).

Starts `sonde serve` with a soft and hard file-descriptor limit of 4096, registers a user
over HTTP from 127.0.0.2, then opens 20,000 connections from 127.0.0.1, each sending
the start of a request head and never its end, keeping up to 6,000 of them open at once
(the server closes those past its per-client cap at once; the rest wait for the 10 s
header timeout). Between batches the user loads Main from 127.0.0.2. Fails if the server
exits, holds more descriptors than its limit, or leaves the user without a page for
longer than 3 s; prints the figures. Loopback only; about 20 s.

    python Tests/Hostile/check_half_sent_flood.py .build/debug/sonde
"""
import errno
import http.client
import os
import re
import resource
import select
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

TOTAL = 20_000
AT_ONCE = 6_000
BATCH = 1_000
SERVER_FD_LIMIT = 4096
USER_ADDRESS = "127.0.0.2"


def fail(message):
    print(f"FAIL: {message}")
    sys.exit(1)


def request(port, method, path, cookies, body=None):
    """One request from the user's address; (status, headers, text)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(USER_ADDRESS, 0))
    headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())}
    data = None
    if body is not None:
        data = urllib.parse.urlencode(body)
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    connection.request(method, path, body=data, headers=headers)
    response = connection.getresponse()
    text = response.read().decode(errors="replace")
    connection.close()
    return response.status, response.getheaders(), text


def set_cookies(headers, cookies):
    for name, value in headers:
        if name.lower() == "set-cookie":
            match = re.match(r"([^=]+)=([^;]*)", value)
            if match:
                cookies[match.group(1)] = match.group(2)


def open_file_descriptors(pid):
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except FileNotFoundError:
        return -1


def main():
    binary = os.path.abspath(sys.argv[1])
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = AT_ONCE + 200
    if hard != resource.RLIM_INFINITY and hard < wanted:
        fail(f"this test needs {wanted} descriptors for its client; the hard limit is {hard}")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, wanted), hard))
    home = tempfile.mkdtemp(prefix="sonde-flood-")
    environment = dict(os.environ, SONDE_HOME=home, SONDE_SCRYPT_LOG_N="10")
    environment.pop("SONDE_DATABASE_URL", None)

    def limited():
        resource.setrlimit(resource.RLIMIT_NOFILE, (SERVER_FD_LIMIT, SERVER_FD_LIMIT))

    server = subprocess.Popen(
        [binary, "serve", "--listen", "127.0.0.1:0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL, env=environment, preexec_fn=limited)
    errors = []
    try:
        line = server.stdout.readline().decode()
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        if not match:
            fail(f"sonde serve printed no URL: {line!r}")
        port = int(match.group(1))
        threading.Thread(target=lambda: errors.extend(server.stderr), daemon=True).start()

        cookies = {}
        status, headers, page = request(port, "GET", "/register", cookies)
        set_cookies(headers, cookies)
        token = re.search(r'name="_csrf" value="([^"]+)"', page).group(1)
        status, headers, _ = request(
            port, "POST", "/register", cookies,
            {"email": "flood@example.com", "password": "a-long-password", "_csrf": token})
        set_cookies(headers, cookies)
        if status != 303 or "sonde_session" not in cookies:
            fail(f"registering answered {status}")

        opened = 0
        refused_connects = 0
        live = []
        slowest = 0.0
        user_loads = 0
        peak_fds = 0
        started = time.monotonic()
        partial = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "
        while opened < TOTAL:
            for _ in range(min(BATCH, TOTAL - opened)):
                if len(live) >= AT_ONCE:
                    break
                sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
                sock.setblocking(False)
                code = sock.connect_ex(("127.0.0.1", port))
                if code not in (0, errno.EINPROGRESS):
                    refused_connects += 1
                    sock.close()
                    continue
                live.append(sock)
                opened += 1
            # Send the half request on each connected socket; drop the ones the server closed.
            poller = select.poll()
            recent = {sock.fileno(): sock for sock in live[-BATCH:]}
            for descriptor in recent:
                poller.register(descriptor, select.POLLOUT)
            writable = [recent[descriptor] for descriptor, _ in poller.poll(1000)] if recent else []
            for sock in writable:
                try:
                    sock.send(partial)
                except OSError:
                    pass
            still = []
            for sock in live:
                try:
                    data = sock.recv(1, socket.MSG_PEEK)
                    closed = data == b""
                except BlockingIOError:
                    closed = False
                except OSError:
                    closed = True
                if closed:
                    sock.close()
                else:
                    still.append(sock)
            live = still
            peak_fds = max(peak_fds, open_file_descriptors(server.pid))
            if server.poll() is not None:
                fail(f"the server exited ({server.returncode}) after {opened} connections: {b''.join(errors[-5:])!r}")
            before = time.monotonic()
            status, _, page = request(port, "GET", "/", cookies)
            took = time.monotonic() - before
            slowest = max(slowest, took)
            user_loads += 1
            if status != 200 or "flood@example.com" not in page:
                fail(f"the user's Main answered {status} during the flood ({opened} connections opened)")
            if took > 3:
                fail(f"the user's Main took {took:.1f} s during the flood")
        elapsed = time.monotonic() - started
        held = len(live)
        for sock in live:
            sock.close()
        if peak_fds >= SERVER_FD_LIMIT:
            fail(f"the server held {peak_fds} descriptors, at its limit")
        if server.poll() is not None:
            fail(f"the server exited ({server.returncode})")
        print(f"ok: {opened} half-sent connections in {elapsed:.1f} s ({held} still open at the end, "
              f"{refused_connects} connects refused); the server peaked at {peak_fds} descriptors of "
              f"{SERVER_FD_LIMIT}; the user loaded Main {user_loads} times, slowest {slowest * 1000:.0f} ms")
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
        subprocess.run(["rm", "-rf", home])


if __name__ == "__main__":
    main()
