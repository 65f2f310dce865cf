/*
 * Writes FFTWisdom.swift: FFTW wisdom for the forward real FFTs sonde plans (N = 16 ...
 * 65536, out of place, fftw_malloc'd arrays), so that FFTPlanCache gets a measured plan
 * without measuring at run time.
 *
 * Why: in this program's timing FFTW_ESTIMATE's plan for N = 1024 took 1.257 us, the
 * best FFTW_MEASURE plan 1.123 us (23-42% less at N = 256, 512, 16384 and 65536); but
 * FFTW_MEASURE times candidates at run time, so its plan (and with it the last bits of
 * every spectral feature) could change from one run to the next. A plan
 * read from wisdom is the same in every run.
 *
 * How a plan is chosen, per N: FFTW_MEASURE plans N from scratch several times (noise
 * makes it pick different plans); every distinct plan, and FFTW_ESTIMATE's, is then timed
 * in interleaved rounds (best of each), and the fastest is kept if it beats
 * FFTW_ESTIMATE's by at least 3%. The wisdom of all kept plans is exported together and
 * checked: re-imported into an empty planner, it must give every kept plan again.
 *
 * Wisdom is specific to the FFTW build and the CPU's SIMD: on another FFTW version
 * fftw_import_wisdom_from_string fails, and where wisdom does not apply
 * FFTW_WISDOM_ONLY finds no plan; FFTPlanCache falls back to FFTW_ESTIMATE in both cases.
 *
 * Build and run from the repository root, on an idle machine:
 *   cc -O2 Sources/SondeDSP/FFT/make_fftw_wisdom.c -o /tmp/make_fftw_wisdom -lfftw3 -lm
 *   /tmp/make_fftw_wisdom > Sources/SondeDSP/FFT/FFTWisdom.swift
 */
#include <fftw3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { MIN_LOG2 = 4, MAX_LOG2 = 16, MEASURE_TRIES = 6, MAX_CANDIDATES = MEASURE_TRIES + 1, ROUNDS = 40 };

typedef struct {
    char *wisdom; /* NULL for FFTW_ESTIMATE's plan */
    char *plan_text;
    double best_seconds;
} Candidate;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static fftw_plan make_plan(int n, double *in, fftw_complex *out, const char *wisdom) {
    fftw_forget_wisdom();
    if (!wisdom) return fftw_plan_dft_r2c_1d(n, in, out, FFTW_ESTIMATE);
    if (!fftw_import_wisdom_from_string(wisdom)) return NULL;
    return fftw_plan_dft_r2c_1d(n, in, out, FFTW_MEASURE | FFTW_WISDOM_ONLY);
}

int main(void) {
    char *kept[MAX_LOG2 + 1] = {0};
    char *kept_plan[MAX_LOG2 + 1] = {0};
    for (int log2n = MIN_LOG2; log2n <= MAX_LOG2; log2n++) {
        int n = 1 << log2n;
        double *in = fftw_malloc(sizeof(double) * n);
        fftw_complex *out = fftw_malloc(sizeof(fftw_complex) * (n / 2 + 1));
        Candidate candidates[MAX_CANDIDATES];
        int count = 0;
        fftw_plan estimate = make_plan(n, in, out, NULL);
        candidates[count++] = (Candidate){NULL, fftw_sprint_plan(estimate), 1e9};
        fftw_destroy_plan(estimate);
        for (int t = 0; t < MEASURE_TRIES; t++) {
            fftw_forget_wisdom();
            fftw_plan p = fftw_plan_dft_r2c_1d(n, in, out, FFTW_MEASURE);
            char *text = fftw_sprint_plan(p);
            int seen = 0;
            for (int c = 0; c < count; c++) seen |= strcmp(candidates[c].plan_text, text) == 0;
            if (!seen) candidates[count++] = (Candidate){fftw_export_wisdom_to_string(), text, 1e9};
            else free(text);
            fftw_destroy_plan(p);
        }
        fftw_plan plans[MAX_CANDIDATES];
        for (int c = 0; c < count; c++) {
            plans[c] = make_plan(n, in, out, candidates[c].wisdom);
            if (!plans[c]) { fprintf(stderr, "N=%d: candidate %d does not re-plan from its wisdom\n", n, c); return 1; }
        }
        for (int i = 0; i < n; i++) in[i] = (double)((i * 7919) % 1000) / 1000.0 - 0.5;
        int repeats = n >= 16384 ? 20 : 4000000 / (n * log2n) + 1;
        for (int round = 0; round < ROUNDS; round++) {
            for (int c = 0; c < count; c++) {
                double start = now();
                for (int r = 0; r < repeats; r++) fftw_execute_dft_r2c(plans[c], in, out);
                double seconds = (now() - start) / repeats;
                if (seconds < candidates[c].best_seconds) candidates[c].best_seconds = seconds;
            }
        }
        int best = 0;
        for (int c = 1; c < count; c++) if (candidates[c].best_seconds < candidates[best].best_seconds) best = c;
        double gain = 1 - candidates[best].best_seconds / candidates[0].best_seconds;
        fprintf(stderr, "N=%6d: estimate %.3f us, %d measured plan(s), best %.3f us (%.1f%% faster)%s\n", n,
                candidates[0].best_seconds * 1e6, count - 1, candidates[best].best_seconds * 1e6, 100 * gain,
                best > 0 && gain >= 0.03 ? ", kept" : "");
        if (best > 0 && gain >= 0.03) {
            kept[log2n] = candidates[best].wisdom;
            kept_plan[log2n] = candidates[best].plan_text;
        }
        for (int c = 0; c < count; c++) fftw_destroy_plan(plans[c]);
        fftw_free(in);
        fftw_free(out);
    }
    /* All kept wisdom in one planner, exported once; then checked from scratch. */
    fftw_forget_wisdom();
    for (int log2n = MIN_LOG2; log2n <= MAX_LOG2; log2n++)
        if (kept[log2n] && !fftw_import_wisdom_from_string(kept[log2n])) { fprintf(stderr, "import failed\n"); return 1; }
    char *combined = fftw_export_wisdom_to_string();
    fftw_forget_wisdom();
    if (!fftw_import_wisdom_from_string(combined)) { fprintf(stderr, "combined import failed\n"); return 1; }
    for (int log2n = MIN_LOG2; log2n <= MAX_LOG2; log2n++) {
        if (!kept[log2n]) continue;
        int n = 1 << log2n;
        double *in = fftw_malloc(sizeof(double) * n);
        fftw_complex *out = fftw_malloc(sizeof(fftw_complex) * (n / 2 + 1));
        fftw_plan p = fftw_plan_dft_r2c_1d(n, in, out, FFTW_MEASURE | FFTW_WISDOM_ONLY);
        char *text = p ? fftw_sprint_plan(p) : NULL;
        if (!text || strcmp(text, kept_plan[log2n]) != 0) {
            fprintf(stderr, "N=%d: the combined wisdom gives another plan\n", n);
            return 1;
        }
        fftw_destroy_plan(p);
        fftw_free(in);
        fftw_free(out);
    }
    printf("// Generated by make_fftw_wisdom.c; do not edit.\n\n");
    printf("enum FFTWisdom {\n");
    printf("    /// Measured plans for forward real FFTs, as FFTW wisdom (see make_fftw_wisdom.c).\n");
    printf("    /// Made with %s.\n", fftw_version);
    printf("    static let text = \"\"\"\n");
    for (char *line = strtok(combined, "\n"); line; line = strtok(NULL, "\n")) printf("        %s\n", line);
    printf("        \"\"\"\n}\n");
    return 0;
}
