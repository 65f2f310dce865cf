#!/usr/bin/env python3
"""A one-node Slurm cluster of Debian's packages, in a temporary folder, for as long as it is needed.

The cluster test (check_slurm.py) runs docs/cluster/sonde-array.sbatch under a real
slurmctld and slurmd instead of setting Slurm's variables by hand. Everything lives in one
temporary folder: slurm.conf, cgroup.conf, the munge key and socket, state, spool and logs;
the daemons listen on loopback ports that were free, so two clusters on one machine do not
meet, and nothing under /etc, /run or /var is read or written. No systemd: munged,
slurmctld and slurmd run in the foreground as children of this process and are stopped
(jobs cancelled first) and the folder removed when the `with` block ends, also on failure.

    with SlurmCluster() as cluster:          # waits until sinfo shows the node idle
        subprocess.run(["sbatch", ...], env=cluster.env, check=True)

By hand, a shell (or any command) with a live cluster and SLURM_CONF set:

    python3 Tests/Cluster/slurm_cluster.py bash
    python3 Tests/Cluster/slurm_cluster.py sinfo

A test sandbox, not a deployment: slurmctld runs as root (`SlurmUser=root`) because the
test runs as root and a dedicated `slurm` account would need files it owns outside the
temporary folder; processes are tracked by walking /proc (`proctrack/linuxproc`) and no
cgroups are used (`task/none`), so nothing limits a job's CPUs or memory. Needs the
packages slurmctld, slurmd, slurm-client and munge (Debian 12: Slurm 22.05), and root.

Standard library only.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

NODE = "sonde-node"
PARTITION = "sonde"
DAEMONS = ("munged", "slurmctld", "slurmd")
CLIENTS = ("sinfo", "sbatch", "squeue", "scancel", "scontrol")


class SlurmClusterError(RuntimeError):
    """The cluster could not be started; the message names the daemon and the end of its log."""


def _free_port() -> int:
    """A loopback TCP port nobody listens on now (the daemons bind it a moment later)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _tail(path: str, lines: int = 15) -> str:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return "".join(handle.readlines()[-lines:])
    except OSError:
        return f"({path} was not written)"


def missing_requirements() -> list[str]:
    """What this machine lacks to start a cluster, each as a line saying how to get it."""
    problems = []
    for program in DAEMONS + CLIENTS:
        if shutil.which(program) is None and not os.path.exists(f"/usr/sbin/{program}"):
            problems.append(
                f"{program} is not installed: apt-get install slurmctld slurmd slurm-client munge"
                " (make test installs them)"
            )
    if os.geteuid() != 0:
        problems.append("slurmd must run as root to start jobs: run the test as root")
    return problems


def _program(name: str) -> str:
    return shutil.which(name) or f"/usr/sbin/{name}"


class SlurmCluster:
    """munged + slurmctld + slurmd on 127.0.0.1, configured and kept in one temporary folder."""

    def __init__(self, cpus: int | None = None, memory_mib: int = 4096, start_timeout: float = 60.0):
        # Slurm refuses a node that claims more CPUs than slurmd finds, so the node has the
        # machine's CPUs (or fewer); memory is declared, not measured, and not enforced.
        self.cpus = max(1, min(cpus or os.cpu_count() or 1, os.cpu_count() or 1))
        self.memory_mib = memory_mib
        self.start_timeout = start_timeout
        self.root = ""
        self.env: dict[str, str] = {}
        self._processes: list[tuple[str, subprocess.Popen, str]] = []

    # -- configuration ---------------------------------------------------------------

    def _write_files(self) -> None:
        root = self.root
        for folder in ("munge", "state", "spool", "log"):
            os.makedirs(os.path.join(root, folder), mode=0o755)
        # munged wants every directory on the socket's path searchable by all and its key
        # readable by its owner alone.
        os.chmod(root, 0o755)
        key = os.path.join(root, "munge", "munge.key")
        with open(os.open(key, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o400), "wb") as handle:
            handle.write(os.urandom(1024))
        self.munge_socket = os.path.join(root, "munge", "munge.socket")
        self.controller_port = _free_port()
        self.node_port = _free_port()
        while self.node_port == self.controller_port:
            self.node_port = _free_port()
        plugstack = os.path.join(root, "plugstack.conf")
        open(plugstack, "w", encoding="utf-8").close()
        with open(os.path.join(root, "cgroup.conf"), "w", encoding="utf-8") as handle:
            # Nothing is constrained: no cgroup plugin is loaded with proctrack/linuxproc and
            # task/none; the file only keeps slurmd from reading /etc/slurm's.
            handle.write("ConstrainCores=no\nConstrainRAMSpace=no\nConstrainDevices=no\n")
        config = f"""# Written by Tests/Cluster/slurm_cluster.py for one test run; removed afterwards.
ClusterName=sonde-test
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort={self.controller_port}
SlurmdPort={self.node_port}
# Test sandbox: the controller runs as root (see the module's doc comment).
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket={self.munge_socket}
StateSaveLocation={root}/state
SlurmdSpoolDir={root}/spool
SlurmctldPidFile={root}/slurmctld.pid
SlurmdPidFile={root}/slurmd.pid
SlurmctldLogFile={root}/log/slurmctld.log
SlurmdLogFile={root}/log/slurmd.log
PlugStackConfig={plugstack}
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SwitchType=switch/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
# Finished jobs stay visible to scontrol for ten minutes (there is no accounting database),
# a cancelled job gets 5 s between SIGTERM and SIGKILL, and the scheduler looks often.
MinJobAge=600
KillWait=5
InactiveLimit=0
SchedulerParameters=sched_interval=2
NodeName={NODE} NodeAddr=127.0.0.1 NodeHostname=localhost CPUs={self.cpus} RealMemory={self.memory_mib} State=UNKNOWN
PartitionName={PARTITION} Nodes={NODE} Default=YES MaxTime=INFINITE State=UP
"""
        self.conf = os.path.join(root, "slurm.conf")
        with open(self.conf, "w", encoding="utf-8") as handle:
            handle.write(config)
        self.env = dict(os.environ, SLURM_CONF=self.conf)
        # A job inherits the submitter's environment; variables of an enclosing allocation
        # would confuse the clients.
        for name in list(self.env):
            if name.startswith("SLURM_") and name != "SLURM_CONF":
                del self.env[name]

    # -- daemons ---------------------------------------------------------------------

    def _start(self, name: str, argv: list[str], log: str) -> None:
        output = open(os.path.join(self.root, "log", f"{name}.out"), "wb")
        process = subprocess.Popen(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=output,
            stderr=subprocess.STDOUT,
            env=self.env,
            start_new_session=True,
        )
        output.close()
        self._processes.append((name, process, log))

    def _check_alive(self) -> None:
        for name, process, log in self._processes:
            if process.poll() is not None:
                out = _tail(os.path.join(self.root, "log", f"{name}.out"))
                raise SlurmClusterError(
                    f"{name} exited with status {process.returncode} while the cluster started;\n"
                    f"its log ({log}):\n{_tail(log)}\nits output:\n{out}"
                )

    def _wait(self, what: str, ready) -> None:
        deadline = time.monotonic() + self.start_timeout
        while True:
            self._check_alive()
            if ready():
                return
            if time.monotonic() > deadline:
                logs = "\n".join(f"--- {name} ({log}):\n{_tail(log)}" for name, _, log in self._processes)
                raise SlurmClusterError(f"the cluster did not {what} within {self.start_timeout:.0f} s\n{logs}")
            time.sleep(0.2)

    def _munge_works(self) -> bool:
        if not os.path.exists(self.munge_socket):
            return False
        credential = subprocess.run(["munge", "-n", "-S", self.munge_socket], capture_output=True)
        if credential.returncode != 0:
            return False
        check = subprocess.run(["unmunge", "-S", self.munge_socket], input=credential.stdout, capture_output=True)
        return check.returncode == 0

    def node_state(self) -> str:
        """The node's state as sinfo prints it (`idle`, `alloc`, `down*`, ...), or "" before the controller answers."""
        result = self.run(["sinfo", "--noheader", "--nodes", NODE, "--format", "%T"], check=False)
        return result.stdout.strip() if result.returncode == 0 else ""

    def start(self) -> "SlurmCluster":
        problems = missing_requirements()
        if problems:
            raise SlurmClusterError("\n".join(problems))
        self.root = tempfile.mkdtemp(prefix="sonde-slurm-")
        try:
            self._write_files()
            log = os.path.join(self.root, "log")
            self._start(
                "munged",
                [
                    _program("munged"),
                    "--foreground",
                    f"--key-file={self.root}/munge/munge.key",
                    f"--socket={self.munge_socket}",
                    f"--pid-file={self.root}/munge/munged.pid",
                    f"--seed-file={self.root}/munge/munged.seed",
                    f"--log-file={log}/munged.log",
                ],
                f"{log}/munged.log",
            )
            self._wait("start munged", self._munge_works)
            self._start("slurmctld", [_program("slurmctld"), "-D", "-f", self.conf], f"{log}/slurmctld.log")
            self._wait("start slurmctld", lambda: self.node_state() != "")
            self._start("slurmd", [_program("slurmd"), "-D", "-f", self.conf, "-N", NODE], f"{log}/slurmd.log")
            self._wait("bring the node up (sinfo never showed it idle)", lambda: self.node_state() == "idle")
        except BaseException:
            self.stop()
            raise
        return self

    def stop(self) -> None:
        """Cancels what still runs, stops the daemons (slurmd, slurmctld, munged) and removes the folder."""
        if not self.root:
            return
        names = [name for name, process, _ in self._processes if process.poll() is None]
        if "slurmctld" in names and "slurmd" in names:
            # Jobs end before slurmd does, so no slurmstepd is left behind.
            try:
                self.run(["scancel", "--partition", PARTITION], check=False, timeout=15)
                deadline = time.monotonic() + 15
                while time.monotonic() < deadline:
                    queue = self.run(["squeue", "--noheader", "--format", "%i"], check=False, timeout=15)
                    if queue.returncode != 0 or not queue.stdout.strip():
                        break
                    time.sleep(0.2)
            except subprocess.TimeoutExpired:
                pass  # the controller does not answer: stop the daemons anyway
        for name, process, _ in reversed(self._processes):
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
                try:
                    process.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
        self._processes.clear()
        if os.environ.get("SONDE_KEEP_SLURM"):
            print(f"slurm: kept {self.root} (SONDE_KEEP_SLURM)", file=sys.stderr)
        else:
            shutil.rmtree(self.root, ignore_errors=True)
        self.root = ""

    def run(self, argv: list[str], check: bool = True, **options) -> subprocess.CompletedProcess:
        """A client command against this cluster (SLURM_CONF set), its output as text."""
        options.setdefault("capture_output", True)
        options.setdefault("text", True)
        options.setdefault("timeout", 60)
        result = subprocess.run(argv, env=options.pop("env", self.env), **options)
        if check and result.returncode != 0:
            raise SlurmClusterError(
                f"{' '.join(argv)} exited with status {result.returncode}: {(result.stderr or '').strip()}"
            )
        return result

    def logs(self) -> str:
        """The end of every daemon's log, for a failure's message."""
        return "\n".join(f"--- {name} ({log}):\n{_tail(log)}" for name, _, log in self._processes)

    def __enter__(self) -> "SlurmCluster":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if argv else 2
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # stop the daemons on the way out
    try:
        with SlurmCluster() as cluster:
            print(f"slurm: node {NODE} idle; SLURM_CONF={cluster.conf}", file=sys.stderr)
            return subprocess.run(argv, env=cluster.env).returncode
    except SlurmClusterError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
