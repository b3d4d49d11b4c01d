/*
 * Double-precision math from the device libraries (OCML), checked against the
 * host's libm: each function runs on its own block over inputs from its
 * domain (small, large and negative arguments; huge ones for sin/cos/tan,
 * whose reduction uses v_trig_preop_f64). Exact operations (division,
 * fma, rounding, fmod, ldexp, frexp, ...) must match bit for bit; the
 * others within a few units in the last place. A few single-precision
 * functions too.
 */
#include "hip_check.h"
#include <cfloat>
#include <cstdint>
#include <vector>

enum Function {
    SIN, COS, TAN, ASIN, ACOS, ATAN, SINH, COSH, TANH, ASINH, ACOSH, ATANH,
    EXP, EXP2, EXP10, EXPM1, LOG, LOG2, LOG10, LOG1P, SQRT, RSQRT, CBRT,
    ERF, ERFC, TGAMMA, LGAMMA, ATAN2, POW, HYPOT, SINCOS_SIN, SINCOS_COS,
    /* exact */
    DIV, FMA, FMOD, REMAINDER, FLOOR, CEIL, TRUNC, ROUND, RINT, LDEXP, FREXP, MODF,
    FMIN, FMAX, COPYSIGN, FDIM, ILOGB, LOGB, NEXTAFTER, SCALBN,
    /* single precision */
    SINF, EXPF, LOGF, POWF, SQRTF, DIVF,
    FUNCTIONS
};

static const char *names[FUNCTIONS] = {
    "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh",
    "atanh", "exp", "exp2", "exp10", "expm1", "log", "log2", "log10", "log1p", "sqrt", "rsqrt",
    "cbrt", "erf", "erfc", "tgamma", "lgamma", "atan2", "pow", "hypot", "sincos.sin",
    "sincos.cos", "div", "fma", "fmod", "remainder", "floor", "ceil", "trunc", "round", "rint",
    "ldexp", "frexp", "modf", "fmin", "fmax", "copysign", "fdim", "ilogb", "logb", "nextafter",
    "scalbn", "sinf", "expf", "logf", "powf", "sqrtf", "divf"};

#define COUNT 128      /* inputs per function: two waves */

__global__ void evaluate(const double *x, const double *y, const double *z, double *out)
{
    int f = blockIdx.x, i = threadIdx.x, k = f * COUNT + i;
    double a = x[k], b = y[k], c = z[k], r = 0.0;
    float af = (float)a, bf = (float)b;
    switch (f) {
    case SIN: r = sin(a); break;
    case COS: r = cos(a); break;
    case TAN: r = tan(a); break;
    case ASIN: r = asin(a); break;
    case ACOS: r = acos(a); break;
    case ATAN: r = atan(a); break;
    case SINH: r = sinh(a); break;
    case COSH: r = cosh(a); break;
    case TANH: r = tanh(a); break;
    case ASINH: r = asinh(a); break;
    case ACOSH: r = acosh(a); break;
    case ATANH: r = atanh(a); break;
    case EXP: r = exp(a); break;
    case EXP2: r = exp2(a); break;
    case EXP10: r = exp10(a); break;
    case EXPM1: r = expm1(a); break;
    case LOG: r = log(a); break;
    case LOG2: r = log2(a); break;
    case LOG10: r = log10(a); break;
    case LOG1P: r = log1p(a); break;
    case SQRT: r = sqrt(a); break;
    case RSQRT: r = rsqrt(a); break;
    case CBRT: r = cbrt(a); break;
    case ERF: r = erf(a); break;
    case ERFC: r = erfc(a); break;
    case TGAMMA: r = tgamma(a); break;
    case LGAMMA: r = lgamma(a); break;
    case ATAN2: r = atan2(a, b); break;
    case POW: r = pow(a, b); break;
    case HYPOT: r = hypot(a, b); break;
    case SINCOS_SIN: { double s, co; sincos(a, &s, &co); r = s; break; }
    case SINCOS_COS: { double s, co; sincos(a, &s, &co); r = co; break; }
    case DIV: r = a / b; break;
    case FMA: r = fma(a, b, c); break;
    case FMOD: r = fmod(a, b); break;
    case REMAINDER: r = remainder(a, b); break;
    case FLOOR: r = floor(a); break;
    case CEIL: r = ceil(a); break;
    case TRUNC: r = trunc(a); break;
    case ROUND: r = round(a); break;
    case RINT: r = rint(a); break;
    case LDEXP: r = ldexp(a, (int)b); break;
    case FREXP: { int e; double m = frexp(a, &e); r = m + 4.0 * e; break; }
    case MODF: { double whole; double frac = modf(a, &whole); r = frac + whole * 8.0; break; }
    case FMIN: r = fmin(a, b); break;
    case FMAX: r = fmax(a, b); break;
    case COPYSIGN: r = copysign(a, b); break;
    case FDIM: r = fdim(a, b); break;
    case ILOGB: r = ilogb(a); break;
    case LOGB: r = logb(a); break;
    case NEXTAFTER: r = nextafter(a, b); break;
    case SCALBN: r = scalbn(a, (int)b); break;
    case SINF: r = sinf(af); break;
    case EXPF: r = expf(af); break;
    case LOGF: r = logf(af); break;
    case POWF: r = powf(af, bf); break;
    case SQRTF: r = sqrtf(af); break;
    case DIVF: r = af / bf; break;
    }
    out[k] = r;
}

static double reference(int f, double a, double b, double c)
{
    float af = (float)a, bf = (float)b;
    switch (f) {
    case SIN: return sin(a);
    case COS: return cos(a);
    case TAN: return tan(a);
    case ASIN: return asin(a);
    case ACOS: return acos(a);
    case ATAN: return atan(a);
    case SINH: return sinh(a);
    case COSH: return cosh(a);
    case TANH: return tanh(a);
    case ASINH: return asinh(a);
    case ACOSH: return acosh(a);
    case ATANH: return atanh(a);
    case EXP: return exp(a);
    case EXP2: return exp2(a);
    case EXP10: return pow(10.0, a);
    case EXPM1: return expm1(a);
    case LOG: return log(a);
    case LOG2: return log2(a);
    case LOG10: return log10(a);
    case LOG1P: return log1p(a);
    case SQRT: return sqrt(a);
    case RSQRT: return 1.0 / sqrt(a);
    case CBRT: return cbrt(a);
    case ERF: return erf(a);
    case ERFC: return erfc(a);
    case TGAMMA: return tgamma(a);
    case LGAMMA: return lgamma(a);
    case ATAN2: return atan2(a, b);
    case POW: return pow(a, b);
    case HYPOT: return hypot(a, b);
    case SINCOS_SIN: return sin(a);
    case SINCOS_COS: return cos(a);
    case DIV: return a / b;
    case FMA: return fma(a, b, c);
    case FMOD: return fmod(a, b);
    case REMAINDER: return remainder(a, b);
    case FLOOR: return floor(a);
    case CEIL: return ceil(a);
    case TRUNC: return trunc(a);
    case ROUND: return round(a);
    case RINT: return rint(a);
    case LDEXP: return ldexp(a, (int)b);
    case FREXP: { int e; double m = frexp(a, &e); return m + 4.0 * e; }
    case MODF: { double whole; double frac = modf(a, &whole); return frac + whole * 8.0; }
    case FMIN: return fmin(a, b);
    case FMAX: return fmax(a, b);
    case COPYSIGN: return copysign(a, b);
    case FDIM: return fdim(a, b);
    case ILOGB: return ilogb(a);
    case LOGB: return logb(a);
    case NEXTAFTER: return nextafter(a, b);
    case SCALBN: return scalbn(a, (int)b);
    case SINF: return sinf(af);
    case EXPF: return expf(af);
    case LOGF: return logf(af);
    case POWF: return powf(af, bf);
    case SQRTF: return sqrtf(af);
    case DIVF: return af / bf;
    }
    return 0.0;
}

/* The error allowed, in units in the last place of the result's precision. */
static double allowed_ulps(int f)
{
    if (f >= DIV && f < SINF) return 0.0;
    if (f == SQRTF || f == DIVF) return 0.0;
    if (f == TGAMMA || f == LGAMMA) return 16.0;
    if (f == POW || f == POWF || f == ERFC || f == EXP10) return 4.0;
    return 3.0;
}

static uint64_t state = 0x9E3779B97F4A7C15ull;
static double uniform(double low, double high)
{
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return low + (high - low) * ((state >> 11) * (1.0 / 9007199254740992.0));
}

/* Inputs for function f: a from its domain, b and c for the binary ones. */
static void inputs(int f, int i, double &a, double &b, double &c)
{
    double t = uniform(0.0, 1.0);
    b = uniform(-4.0, 4.0);
    c = uniform(-1e3, 1e3);
    switch (f) {
    case SIN: case COS: case TAN: case SINCOS_SIN: case SINCOS_COS:
        /* small, medium, large (Payne-Hanek reduction) */
        a = i < 64 ? uniform(-10.0, 10.0) : i < 100 ? uniform(-1e6, 1e6) : ldexp(t + 1.0, i - 100 + (i % 2 ? 100 : 900));
        if (i % 3 == 0 && i >= 100) a = -a;
        break;
    case ASIN: case ACOS: case ATANH: case TANH: case ERF: a = uniform(-1.0, 1.0); if (f == TANH || f == ERF) a *= 6.0; break;
    case ATAN: a = uniform(-50.0, 50.0); break;
    case SINH: case COSH: a = uniform(-700.0, 700.0); break;
    case ASINH: a = uniform(-1e6, 1e6) * (i % 2 ? 1.0 : 1e-6); break;
    case ACOSH: a = 1.0 + uniform(0.0, 1e4) * (i % 2 ? 1.0 : 1e-4); break;
    case EXP: a = uniform(-700.0, 700.0); break;
    case EXP2: a = uniform(-1000.0, 1000.0); break;
    case EXP10: a = uniform(-300.0, 300.0); break;
    case EXPM1: a = uniform(-5.0, 5.0) * (i % 2 ? 1.0 : 1e-5); break;
    case LOG: case LOG2: case LOG10: case SQRT: case RSQRT:
        a = ldexp(t + 0.5, i * 8 - 512); break;
    case LOG1P: a = uniform(-0.999, 1e3) * (i % 2 ? 1.0 : 1e-6); break;
    case CBRT: a = ldexp(t - 0.5, i * 8 - 512); break;
    case ERFC: a = uniform(-5.0, 25.0); break;
    case TGAMMA: a = i % 4 ? uniform(0.1, 170.0) : uniform(-20.0, 0.0); if (a < 0 && a == floor(a)) a += 0.5; break;
    case LGAMMA: a = uniform(3.0, 1e5) * (i % 2 ? 1.0 : 1e-3) + 3.0; break;
    case ATAN2: a = uniform(-10.0, 10.0); break;
    case POW: a = uniform(0.0, 30.0); b = uniform(-100.0, 100.0); if (i % 8 == 0) { a = -a; b = floor(b); } break;
    case HYPOT: a = uniform(-1e3, 1e3) * (i % 2 ? 1e150 : 1.0); b = b * (i % 2 ? 1e150 : 1.0); break;
    case DIV: a = uniform(-1e10, 1e10); b = uniform(-1e-5, 1e5); if (i % 16 == 0) b = ldexp(t + 1.0, -1030); break;
    case FMA: a = uniform(-1e5, 1e5); b = uniform(-1e5, 1e5); c = -a * b * (1.0 + uniform(-1e-12, 1e-12)); break;
    case FMOD: case REMAINDER: a = uniform(-1e6, 1e6); b = uniform(-10.0, 10.0) * (i % 2 ? 1.0 : 1e-3); break;
    case FLOOR: case CEIL: case TRUNC: case ROUND: case RINT: case MODF:
        a = uniform(-1e3, 1e3) * (i % 4 == 0 ? 1e13 : 1.0); if (i % 8 == 1) a = floor(a) + 0.5; break;
    case LDEXP: case SCALBN: a = uniform(-1e3, 1e3); b = floor(uniform(-1100.0, 1100.0)); break;
    case FREXP: case ILOGB: case LOGB: a = ldexp(t + 0.25, i * 16 - 1070) * (i % 2 ? -1.0 : 1.0); break;
    case FMIN: case FMAX: case COPYSIGN: case FDIM: case NEXTAFTER:
        a = uniform(-4.0, 4.0); if (i % 8 == 0) b = a; if (i % 8 == 1) b = -0.0 * a; break;
    case SINF: a = uniform(-100.0, 100.0); break;
    case EXPF: a = uniform(-80.0, 80.0); break;
    case LOGF: a = ldexp(t + 0.5, i - 64); break;
    case POWF: a = uniform(0.0, 20.0); b = uniform(-20.0, 20.0); break;
    case SQRTF: a = ldexp(t + 0.5, i - 64); break;
    case DIVF: a = uniform(-1e6, 1e6); b = uniform(-1e3, 1e3); break;
    default: a = t;
    }
}

/* Distance in units in the last place (of doubles, or of floats for the *f ones). */
static double ulps(double got, double want, bool single)
{
    if (std::isnan(want)) return std::isnan(got) ? 0.0 : INFINITY;
    if (std::isinf(want) || want == 0.0) return got == want ? 0.0 : INFINITY;
    double unit;
    if (single) {
        float w = (float)want;
        unit = (double)nextafterf(fabsf(w), INFINITY) - (double)fabsf(w);
    } else {
        unit = nextafter(fabs(want), INFINITY) - fabs(want);
    }
    return fabs(got - want) / unit;
}

int main()
{
    const int total = FUNCTIONS * COUNT;
    std::vector<double> x(total), y(total), z(total), out(total);
    for (int f = 0; f < FUNCTIONS; f++)
        for (int i = 0; i < COUNT; i++)
            inputs(f, i, x[f * COUNT + i], y[f * COUNT + i], z[f * COUNT + i]);
    double *dx, *dy, *dz, *dout;
    CHECK(hipMalloc(&dx, total * sizeof(double)));
    CHECK(hipMalloc(&dy, total * sizeof(double)));
    CHECK(hipMalloc(&dz, total * sizeof(double)));
    CHECK(hipMalloc(&dout, total * sizeof(double)));
    CHECK(hipMemcpy(dx, x.data(), total * sizeof(double), hipMemcpyHostToDevice));
    CHECK(hipMemcpy(dy, y.data(), total * sizeof(double), hipMemcpyHostToDevice));
    CHECK(hipMemcpy(dz, z.data(), total * sizeof(double), hipMemcpyHostToDevice));
    hipLaunchKernelGGL(evaluate, dim3(FUNCTIONS), dim3(COUNT), 0, 0, dx, dy, dz, dout);
    CHECK_LAUNCH();
    CHECK(hipMemcpy(out.data(), dout, total * sizeof(double), hipMemcpyDeviceToHost));
    for (int f = 0; f < FUNCTIONS; f++) {
        double worst = 0.0;
        bool single = f >= SINF;
        for (int i = 0; i < COUNT; i++) {
            int k = f * COUNT + i;
            double want = reference(f, x[k], y[k], z[k]);
            double error = ulps(out[k], want, single);
            if (allowed_ulps(f) == 0.0 && !(std::isnan(want) && std::isnan(out[k])))
                error = memcmp(&out[k], &want, sizeof want) == 0 ? 0.0 : INFINITY;
            if (error > worst) worst = error;
            EXPECT(error <= allowed_ulps(f), "%s(%.17g, %.17g, %.17g) = %.17g, expected %.17g "
                   "(%.3g ulp)", names[f], x[k], y[k], z[k], out[k], want, error);
        }
        if (worst > 0.5) printf("%s: worst %.2f ulp\n", names[f], worst);
    }
    CHECK(hipFree(dx));
    CHECK(hipFree(dy));
    CHECK(hipFree(dz));
    CHECK(hipFree(dout));
    return finish("hip_math");
}
