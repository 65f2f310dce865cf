"""`/metrics` of `sonde stream --serve`, read by prometheus_client's text-format parser.

Checks that the gauges (latest value per channel and feature), the record, dropped-sample
and dropped-update counters and the latency histogram are there, and that they move while
the stream runs; and that the records counter ends equal to the records on stdout.

usage: check_metrics.py path/to/sonde
"""

import sys
import urllib.request

from prometheus_client.parser import text_string_to_metric_families

from live_stream import Checks, PROFILE, LiveStream, wait_until


def scrape(url):
    with urllib.request.urlopen(url + "metrics", timeout=10) as response:
        assert response.headers.get("Content-Type", "").startswith("text/plain"), response.headers
        text = response.read().decode()
    families = {family.name: family for family in text_string_to_metric_families(text)}
    return families


def samples(family, suffix=""):
    return [sample for sample in family.samples if sample.name == family.name + suffix]


def main():
    binary = sys.argv[1]
    check = Checks()

    arguments = ["--profile", PROFILE, "--seed", "3", "--duration", "6s", "--features", "rms,peak,kurtosis,dominant_frequency"]
    with LiveStream(binary, arguments) as stream:
        wait_until(lambda: stream.records >= 20, timeout=10)
        first = scrape(stream.url)
        wait_until(lambda: stream.records >= 80, timeout=10)
        second = scrape(stream.url)
        status = stream.wait(timeout=30)
        check(status == 0, f"stream exit status {status}: {stream.stderr}")
        check(not stream.bad_lines, f"stdout lines that are not records: {stream.bad_lines[:3]}")

    # prometheus_client names a counter family without its _total suffix.
    for name, kind in [
        ("sonde_feature_value", "gauge"),
        ("sonde_records", "counter"),
        ("sonde_dropped_samples", "counter"),
        ("sonde_live_dropped_updates", "counter"),
        ("sonde_latency_seconds", "histogram"),
    ]:
        family = second.get(name)
        check(family is not None, f"{name} missing from /metrics")
        if family is not None:
            check(family.type == kind, f"{name} is a {family.type}, not a {kind}")
    if check.failures:
        check.finish("")

    gauges = {(s.labels["channel"], s.labels["feature"]): s.value for s in samples(second["sonde_feature_value"])}
    expected = {(c, f) for c in ("accel_x", "accel_y") for f in ("rms", "peak", "kurtosis", "dominant_frequency")}
    check(set(gauges) == expected, f"gauges for {sorted(gauges)}, expected {sorted(expected)}")
    before = {(s.labels["channel"], s.labels["feature"]): s.value for s in samples(first["sonde_feature_value"])}
    check(any(before.get(key) != value for key, value in gauges.items()), "no gauge changed between scrapes")
    # The faulty pump runs at 49.5 Hz with strong harmonics: its RMS is about 1 (x) and its
    # dominant frequency one of the tones.
    check(0.3 < gauges.get(("accel_x", "rms"), 0) < 3, f"accel_x rms {gauges.get(('accel_x', 'rms'))}")

    records = [samples(scrape_, "_total")[0].value for scrape_ in (first["sonde_records"], second["sonde_records"])]
    check(0 < records[0] < records[1], f"records counter did not grow: {records}")
    counts = [samples(family, "_count")[0].value for family in (first["sonde_latency_seconds"], second["sonde_latency_seconds"])]
    check(0 < counts[0] < counts[1], f"latency count did not grow: {counts}")
    buckets = samples(second["sonde_latency_seconds"], "_bucket")
    check(len(buckets) >= 5 and buckets[-1].labels["le"] == "+Inf", f"latency buckets: {buckets}")
    check(buckets[-1].value == counts[1], "the +Inf bucket holds every latency")
    check(all(a.value <= b.value for a, b in zip(buckets, buckets[1:])), "buckets are cumulative")
    check(samples(second["sonde_latency_seconds"], "_sum")[0].value > 0, "latency sum is 0")
    check(records[1] <= stream.records, f"records counter {records[1]} beyond {stream.records} records written")
    check.finish(f"ok /metrics: {len(gauges)} gauges, records {records[0]:.0f} -> {records[1]:.0f}, "
           f"latencies {counts[0]:.0f} -> {counts[1]:.0f}; {stream.records} records on stdout")


if __name__ == "__main__":
    main()
