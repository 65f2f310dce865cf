#!/usr/bin/env python3
"""docs/cluster/sonde-array.sbatch under a real Slurm: the array's merge is the single run, byte for byte.

    python3 Tests/Cluster/check_slurm.py .build/debug/sonde

Starts a one-node cluster of Debian's slurmctld, slurmd and munge (slurm_cluster.py: a
temporary folder, loopback ports, stopped afterwards), writes a small dataset with
Benchmarks/dataset/make_dataset.py, and checks what issue 32 asks of the example:

1. `sbatch --array=0-2 --wait` of the script: every task COMPLETED, three manifests of
   shards K/3, and `sonde merge` gives exactly the bytes of `sonde process DATA -o single.csv`.
2. The array again into a new folder, one task per CPU: task 1 is cancelled with `scancel`
   once its manifest records a first output and before it records the last; Slurm shows it
   CANCELLED, the merge then refuses (exit 2, no file); `sbatch --array=1 --wait ... 3`
   reruns it, which leaves the outputs written before the cancel untouched, and the merge
   equals the single run again.

The job finds sonde on PATH: the binary's folder is put first in the PATH sbatch exports.
Needs root and the packages above (make test installs them); numpy for the dataset.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

from slurm_cluster import SlurmCluster, SlurmClusterError, missing_requirements  # noqa: E402

SCRIPT = os.path.join(ROOT, "docs", "cluster", "sonde-array.sbatch")
MAKE_DATASET = os.path.join(ROOT, "Benchmarks", "dataset", "make_dataset.py")
SHARDS = 3
TASK_TO_CANCEL = 1


class CheckFailed(AssertionError):
    pass


def expect(condition: bool, message: str) -> None:
    if not condition:
        raise CheckFailed(message)


def manifest(out: str, shard: int) -> tuple[int, list[dict]]:
    """(inputs of the shard, the results of its last run so far) from its manifest.

    sonde appends a `run` line when a task starts, an `input` line per input of the shard,
    then a `result` line (`ok` or `failed`) as each input it measures ends; a rerun writes
    none for the inputs it skips.
    """
    path = os.path.join(out, f"manifest-{shard}-of-{SHARDS}.jsonl")
    inputs, results = -1, []
    try:
        with open(path, encoding="utf-8") as handle:
            lines = handle.readlines()
    except FileNotFoundError:
        return inputs, results
    for line in lines:
        if not line.endswith("\n"):
            break  # being written
        record = json.loads(line)
        if record.get("type") == "run":
            inputs, results = record["inputs"], []
        elif record.get("type") == "result":
            results.append(record)
    return inputs, results


def statuses(results: list[dict]) -> dict[str, int]:
    counted: dict[str, int] = {}
    for result in results:
        counted[result["status"]] = counted.get(result["status"], 0) + 1
    return counted


def job_states(cluster: SlurmCluster, job: str) -> dict[str, str]:
    """Array task id -> JobState, from scontrol (finished jobs stay for MinJobAge)."""
    shown = cluster.run(["scontrol", "show", "job", "--oneliner", job]).stdout
    states = {}
    for line in shown.splitlines():
        task = re.search(r"\bArrayTaskId=(\S+)", line)
        state = re.search(r"\bJobState=(\S+)", line)
        if task and state:
            states[task.group(1)] = state.group(1)
    return states


def wait_until_gone(cluster: SlurmCluster, job: str, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while cluster.run(["squeue", "--noheader", "--jobs", job, "--format", "%i"], check=False).stdout.strip():
        expect(time.monotonic() < deadline, f"job {job} still in squeue after {timeout:.0f} s")
        time.sleep(0.2)


def sonde(binary: str, args: list[str], cwd: str) -> subprocess.CompletedProcess:
    return subprocess.run([binary, *args], cwd=cwd, capture_output=True, text=True, timeout=300)


def short_outputs(out: str, single_csv: bytes) -> list[str]:
    """Outputs a manifest records as `ok` with fewer records than the single run has for that file."""
    rows: dict[str, int] = {}
    for line in single_csv.decode().splitlines()[1:]:
        name = line.split(",", 1)[0]
        rows[name] = rows.get(name, 0) + 1
    found = []
    for shard in range(SHARDS):
        path = os.path.join(out, f"manifest-{shard}-of-{SHARDS}.jsonl")
        if not os.path.exists(path):
            continue
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                record = json.loads(line)
                if record.get("type") == "result" and record.get("status") == "ok":
                    name = record["output"].removesuffix(".csv")
                    if record.get("records") != rows.get(name):
                        found.append(
                            f"{record['output']}: recorded ok with {record.get('records')} records, "
                            f"the single run has {rows.get(name)} (manifest-{shard}-of-{SHARDS}.jsonl)"
                        )
    return found


def check(binary: str, work: str, files: int, seconds: float) -> str:
    data = os.path.join(work, "data")
    subprocess.run(
        [sys.executable, MAKE_DATASET, data, "--files", str(files), "--seconds", str(seconds)],
        check=True,
        capture_output=True,
        timeout=120,
    )
    single = sonde(binary, ["process", "data", "-o", "single.csv"], work)
    expect(single.returncode == 0, f"sonde process data -o single.csv: {single.stderr.strip()}")
    with open(os.path.join(work, "single.csv"), "rb") as handle:
        expected = handle.read()
    lines = expected.count(b"\n")
    expect(lines > files, f"single.csv has {lines} lines for {files} clips")

    with SlurmCluster() as cluster:
        env = dict(cluster.env, PATH=os.path.dirname(binary) + os.pathsep + cluster.env.get("PATH", "/usr/bin:/bin"))

        def sbatch(args: list[str], timeout: float = 150) -> subprocess.CompletedProcess:
            return cluster.run(["sbatch", *args], check=False, env=env, cwd=work, timeout=timeout)

        def merged(out: str, name: str) -> bytes:
            result = sonde(binary, ["merge", out, "-o", name], work)
            expect(result.returncode == 0, f"sonde merge {out}: {result.stderr.strip()}")
            with open(os.path.join(work, name), "rb") as handle:
                return handle.read()

        def logs() -> str:
            text = ""
            for name in sorted(n for n in os.listdir(work) if n.startswith("sonde-") and n.endswith(".log")):
                with open(os.path.join(work, name), encoding="utf-8", errors="replace") as handle:
                    text += f"--- {name}:\n{handle.read()}"
            return text

        # 1. The whole array, as docs/cluster.md says to submit it.
        whole = sbatch(["--parsable", f"--array=0-{SHARDS - 1}", "--wait", SCRIPT, "data", "out"])
        expect(whole.returncode == 0, f"sbatch --wait exited {whole.returncode}: {whole.stderr}\n{logs()}")
        job = whole.stdout.strip().split(";")[0]
        states = job_states(cluster, job)
        expect(
            states == {str(k): "COMPLETED" for k in range(SHARDS)},
            f"array tasks of job {job}: {states}, expected {SHARDS} COMPLETED\n{logs()}",
        )
        counts = [manifest(os.path.join(work, "out"), k) for k in range(SHARDS)]
        expect(
            all(statuses(results) == {"ok": inputs} for inputs, results in counts)
            and sum(inputs for inputs, _ in counts) == files,
            f"manifests of shards 0-{SHARDS - 1}: {[(n, statuses(r)) for n, r in counts]} for {files} clips",
        )
        first = merged("out", "merged.csv")
        expect(first == expected, f"merge of the array ({len(first)} bytes) != single run ({len(expected)} bytes)")

        # 2. Again into a new folder, one CPU per task (so --jobs 1), and task 1 cancelled
        # between its first and last output.
        out = os.path.join(work, "out-cancel")
        started = time.monotonic()
        submitted = sbatch(["--parsable", f"--array=0-{SHARDS - 1}", "--cpus-per-task=1", SCRIPT, "data", "out-cancel"])
        expect(submitted.returncode == 0, f"sbatch exited {submitted.returncode}: {submitted.stderr}")
        job = submitted.stdout.strip().split(";")[0]
        task = f"{job}_{TASK_TO_CANCEL}"
        deadline = started + 120
        while True:
            inputs, results = manifest(out, TASK_TO_CANCEL)
            if results:
                break
            expect(time.monotonic() < deadline, f"task {task} wrote no output within 120 s\n{logs()}")
            time.sleep(0.02)
        cancel = cluster.run(["scancel", task], check=False)
        cancelled_after = time.monotonic() - started
        expect(
            cancel.returncode == 0,
            f"scancel {task}: {cancel.stderr.strip()} (did the task end before it could be cancelled? raise --seconds)",
        )
        wait_until_gone(cluster, job, 120)
        states = job_states(cluster, job)
        others = {str(k): "COMPLETED" for k in range(SHARDS) if k != TASK_TO_CANCEL}
        expect(
            states == dict(others, **{str(TASK_TO_CANCEL): "CANCELLED"}),
            f"array tasks of job {job} after scancel {task}: {states}\n{logs()}",
        )
        inputs, results = manifest(out, TASK_TO_CANCEL)
        written = [r["output"] for r in results if r["status"] == "ok"]
        expect(
            0 < len(written) < inputs and len(results) == len(written),
            f"task {task} had ended {statuses(results)} of {inputs} inputs when scancel reached it: not halfway; "
            "the clips are too short for this machine (raise --seconds)",
        )
        done_at_cancel = len(written)
        before = {name: os.stat(os.path.join(out, name)).st_mtime_ns for name in written}
        refused = sonde(binary, ["merge", "out-cancel", "-o", "partial.csv"], work)
        expect(
            refused.returncode == 2 and not os.path.exists(os.path.join(work, "partial.csv")),
            f"merge with task {TASK_TO_CANCEL} cancelled: status {refused.returncode}, "
            f"partial.csv {'written' if os.path.exists(os.path.join(work, 'partial.csv')) else 'absent'}, "
            f"expected status 2 and no file: {refused.stderr.strip()}",
        )

        rerun = sbatch(["--parsable", f"--array={TASK_TO_CANCEL}", "--wait", SCRIPT, "data", "out-cancel", str(SHARDS)])
        expect(rerun.returncode == 0, f"resubmitting task {TASK_TO_CANCEL} exited {rerun.returncode}\n{logs()}")
        rerun_job = rerun.stdout.strip().split(";")[0]
        states = job_states(cluster, rerun_job)
        expect(states == {str(TASK_TO_CANCEL): "COMPLETED"}, f"resubmitted task {rerun_job}: {states}")
        inputs, results = manifest(out, TASK_TO_CANCEL)
        counted = statuses(results)
        # A rerun writes a result line only for what it measures: the outputs recorded
        # before the cancel are skipped without one (the run line's note counts them).
        expect(
            counted == {"ok": inputs - done_at_cancel},
            f"the rerun of shard {TASK_TO_CANCEL} ended {counted} of {inputs} inputs; expected the {done_at_cancel} "
            f"written before the cancel skipped and the other {inputs - done_at_cancel} ok",
        )
        after = {name: os.stat(os.path.join(out, name)).st_mtime_ns for name in before}
        expect(after == before, "the rerun rewrote outputs the cancelled task had finished")
        second = merged("out-cancel", "merged-again.csv")
        expect(
            second == expected,
            f"merge after the rerun ({len(second)} bytes) != single run ({len(expected)} bytes)\n  "
            + "\n  ".join(short_outputs(out, expected) or ["no output recorded short"]),
        )

    return (
        f"slurm: {SHARDS} array tasks, merge == single run ({len(expected)} bytes, {files} clips); "
        f"task {TASK_TO_CANCEL} cancelled at {done_at_cancel} of {inputs} outputs ({cancelled_after:.1f} s after "
        f"submission) and resubmitted: merge == single run"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binary", help="the sonde binary the jobs run (its folder goes first on the job's PATH)")
    parser.add_argument("--files", type=int, default=30, help="clips in the dataset (default 30)")
    parser.add_argument("--seconds", type=float, default=20.0, help="length of each clip (default 20 s)")
    parser.add_argument("--keep", action="store_true", help="keep the dataset, outputs and job logs, and say where")
    args = parser.parse_args()
    binary = os.path.abspath(args.binary)
    if not os.access(binary, os.X_OK):
        print(f"error: {args.binary}: no executable sonde there; build it first (make test builds .build/debug/sonde)")
        return 1
    problems = missing_requirements()
    if problems:
        print("error: cannot start a Slurm cluster here:\n  " + "\n  ".join(problems), file=sys.stderr)
        return 1
    # A SIGTERM (make's or a CI's timeout) unwinds like an error: the daemons stop, the folders go.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    work = tempfile.mkdtemp(prefix="sonde-slurm-work-")
    began = time.monotonic()
    try:
        print(check(binary, work, args.files, args.seconds) + f" [{time.monotonic() - began:.0f} s]")
        return 0
    except (CheckFailed, SlurmClusterError, subprocess.SubprocessError, OSError) as error:
        print(f"FAIL: {error}", file=sys.stderr)
        return 1
    finally:
        if args.keep:
            print(f"kept {work}", file=sys.stderr)
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
