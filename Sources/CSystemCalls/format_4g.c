#include <math.h>
#include <stdio.h>

#include "system_calls.h"

/// 10^0 ... 10^22: exact in a double.
static const double powers_of_ten[] = {
    1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

/// |value| * 10^(3 - exponent): the four significant digits before the point. Within two
/// roundings of the exact product, since every power used is exact.
static double scaled_to_four_digits(double magnitude, int exponent) {
    int shift = 3 - exponent;
    return shift >= 0 ? magnitude * powers_of_ten[shift] : magnitude / powers_of_ten[-shift];
}

int sonde_format_4g(char *buffer, unsigned long size, double value) {
    double magnitude = fabs(value);
    // Exact powers only (|shift| <= 22), and room for the longest result ("-1.234e-05").
    if (!(magnitude >= 1e-19 && magnitude < 1e25) || size < 16) {
        return snprintf(buffer, size, "%.4g", value);
    }
    // The decimal exponent from the binary one (log10 was a sixth of the time): for
    // 2^(b-1) <= |value| < 2^b it is floor((b-1) log10 2) or one more.
    int binary_exponent;
    frexp(magnitude, &binary_exponent);
    int exponent = (int)floor((binary_exponent - 1) * 0.30102999566398120);
    double scaled = scaled_to_four_digits(magnitude, exponent);
    if (scaled >= 10000.0) {
        exponent += 1;
        scaled = scaled_to_four_digits(magnitude, exponent);
    }
    double whole = floor(scaled);
    double fraction = scaled - whole;
    // The product is within about 4e-13 of exact here (two roundings of a number under
    // 10^4): only a fraction this near one half could round the other way, or be a tie that
    // printf breaks to even. Those go to printf, as do scaled values a hair outside the range.
    if (fabs(fraction - 0.5) < 1e-6 || whole < 1000.0 || whole > 9999.0) {
        return snprintf(buffer, size, "%.4g", value);
    }
    int digits = (int)whole + (fraction > 0.5 ? 1 : 0);
    if (digits == 10000) {
        digits = 1000;
        exponent += 1;
    }
    char significant[4];
    for (int index = 3; index >= 0; index--) {
        significant[index] = (char)('0' + digits % 10);
        digits /= 10;
    }
    // %g drops trailing zeros, and the point when nothing follows it.
    int kept = 4;
    while (kept > 1 && significant[kept - 1] == '0') kept--;

    char *out = buffer;
    if (value < 0) *out++ = '-';
    if (exponent >= -4 && exponent < 4) {
        if (exponent < 0) {
            *out++ = '0';
            *out++ = '.';
            for (int zero = 0; zero < -exponent - 1; zero++) *out++ = '0';
            for (int index = 0; index < kept; index++) *out++ = significant[index];
        } else {
            for (int index = 0; index <= exponent; index++) *out++ = significant[index];
            if (kept > exponent + 1) {
                *out++ = '.';
                for (int index = exponent + 1; index < kept; index++) *out++ = significant[index];
            }
        }
    } else {
        *out++ = significant[0];
        if (kept > 1) {
            *out++ = '.';
            for (int index = 1; index < kept; index++) *out++ = significant[index];
        }
        *out++ = 'e';
        *out++ = exponent < 0 ? '-' : '+';
        int power = exponent < 0 ? -exponent : exponent;
        // At least two digits, as printf writes them.
        if (power >= 10) {
            *out++ = (char)('0' + power / 10);
        } else {
            *out++ = '0';
        }
        *out++ = (char)('0' + power % 10);
    }
    *out = '\0';
    return (int)(out - buffer);
}
