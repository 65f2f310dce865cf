"""Exports under load (issue 44, item 10; loopback only, bounded in time): `sonde serve` with
one account holding 30 ten-minute measurements (25.6 kHz x 2 channels, every default
column: Benchmarks/store/fill_store.py writes them into the schema), then

- 20 clients downloading `export.csv` of a 10-minute measurement at the same moment;
- one client downloading `export.zip` of all 30: when its first byte arrives, when it ends;

the server's resident memory sampled every 20 ms throughout. Every download is checked:
the CSVs equal `sonde measurements export`'s bytes, the zip's entries too.

usage: exports.py path/to/sonde [--clients 20] [--measurements 30]
Exit status 1 when a download differs or fails, RSS reaches 200 MB, or the zip's first
byte takes 1 s or more.
"""

import argparse
import hashlib
import http.client
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EMAIL = "exports@example.com"
PASSWORD = "export-load-password"


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--measurements", type=int, default=30)
    arguments = parser.parse_args()
    binary = os.path.abspath(arguments.binary)
    home = tempfile.mkdtemp(prefix="sonde-exports-")
    environment = dict(os.environ, SONDE_HOME=home, SONDE_SCRYPT_LOG_N="10")
    environment.pop("SONDE_DATABASE_URL", None)
    failures = []
    try:
        register = subprocess.run([binary, "register", "--email", EMAIL, "--password-stdin"],
                                  input=PASSWORD + "\n", text=True, env=environment, capture_output=True)
        if register.returncode != 0:
            sys.exit(f"register: {register.stderr}")
        database = os.path.join(home, "sonde.sqlite")
        if not os.path.exists(database):
            database = next(os.path.join(home, name) for name in os.listdir(home) if name.endswith(".sqlite"))
        started = time.monotonic()
        subprocess.run([sys.executable, os.path.join(ROOT, "Benchmarks", "store", "fill_store.py"), database,
                        "--email", EMAIL, "--count", str(arguments.measurements), "--full",
                        str(arguments.measurements)], check=True, env=environment, stdout=subprocess.DEVNULL)
        print(f"filled {arguments.measurements} ten-minute measurements in {time.monotonic() - started:.0f} s")
        login = subprocess.run([binary, "login", "--email", EMAIL, "--password-stdin"], input=PASSWORD + "\n",
                               text=True, env=environment, capture_output=True)
        if login.returncode != 0:
            sys.exit(f"login: {login.stderr}")
        reference = subprocess.run([binary, "measurements", "export", "1", "--format", "csv"], env=environment,
                                   capture_output=True, check=True).stdout
        server = subprocess.Popen([binary, "serve", "--listen", "127.0.0.1:0"], env=environment,
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        port = int(re.search(r":(\d+)/", server.stdout.readline().decode()).group(1))
        peak = [0.0]
        sampling = [True]

        def sample():
            while sampling[0]:
                peak[0] = max(peak[0], rss_mb(server.pid))
                time.sleep(0.02)

        threading.Thread(target=sample, daemon=True).start()
        idle = rss_mb(server.pid)

        def signed_in():
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
            connection.request("GET", "/login")
            response = connection.getresponse()
            page = response.read().decode()
            csrf = re.search(r"sonde_csrf=([^;]+)", response.headers.get("Set-Cookie", "")).group(1)
            token = re.search(r'name="_csrf" value="([^"]+)"', page).group(1)
            body = urllib.parse.urlencode({"email": EMAIL, "password": PASSWORD, "_csrf": token})
            connection.request("POST", "/login", body=body, headers={
                "Cookie": f"sonde_csrf={csrf}", "Content-Type": "application/x-www-form-urlencoded"})
            response = connection.getresponse()
            response.read()
            session = re.search(r"sonde_session=([^;]+)", response.headers.get("Set-Cookie", "")).group(1)
            return connection, {"Cookie": f"sonde_session={session}"}

        clients = [signed_in() for _ in range(arguments.clients)]
        results = [None] * arguments.clients
        gate = threading.Barrier(arguments.clients)

        def download(index):
            connection, headers = clients[index]
            gate.wait()
            began = time.monotonic()
            connection.request("GET", "/measurements/1/export.csv", headers=headers)
            response = connection.getresponse()
            data = response.read()
            results[index] = (response.status, time.monotonic() - began, data == reference)

        threads = [threading.Thread(target=download, args=(index,)) for index in range(arguments.clients)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        csv_peak = peak[0]
        times = sorted(result[1] for result in results)
        good = sum(1 for result in results if result[0] == 200 and result[2])
        print(f"{arguments.clients} CSV exports at once ({len(reference) / 1e6:.1f} MB each): {good} complete "
              f"and equal to the CLI's, {times[0]:.1f}-{times[-1]:.1f} s; peak RSS {csv_peak:.0f} MB (idle {idle:.0f} MB)")
        if good != arguments.clients:
            failures.append(f"only {good} of {arguments.clients} CSV exports complete and equal")

        # A new connection: the CSV clients' ones idled past the server's 10 s header timeout.
        headers = clients[0][1]
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
        began = time.monotonic()
        connection.request("GET", "/measurements/export.zip", headers=headers)
        response = connection.getresponse()
        head = time.monotonic() - began
        first = response.read(1)
        first_byte = time.monotonic() - began
        rest = response.read()
        total = time.monotonic() - began
        sampling[0] = False
        archive = zipfile.ZipFile(io.BytesIO(first + rest))
        names = archive.namelist()
        same = archive.read("measurements/measurement-1.csv") == reference
        print(f"export.zip of {arguments.measurements}: response head after {head:.2f} s, first byte after {first_byte:.2f} s, "
              f"{len(first + rest) / 1e6:.0f} MB in {total:.1f} s, {len(names)} entries, "
              f"measurement 1 equal to the CLI's: {same}; peak RSS over both {peak[0]:.0f} MB")
        if len(names) != arguments.measurements + 1 or not same or archive.testzip() is not None:
            failures.append("the zip's entries differ")
        if first_byte >= 1:
            failures.append(f"the zip's first byte after {first_byte:.2f} s")
        if peak[0] >= 200:
            failures.append(f"peak RSS {peak[0]:.0f} MB")
        server.terminate()
        server.wait(timeout=20)
    finally:
        shutil.rmtree(home, ignore_errors=True)
    if failures:
        print("FAIL: " + "; ".join(failures))
        sys.exit(1)


if __name__ == "__main__":
    main()
