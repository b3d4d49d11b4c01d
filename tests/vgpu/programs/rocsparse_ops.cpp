// rocSPARSE's own precompiled kernels on the virtual GPU, checked against
// plain host loops: csrmv (plain, transposed, and adaptive after
// csrmv_analysis, with rows long enough to be split over work-groups), csrsv
// (a lower triangular solve: rows wait for rows of other work-groups), coomv,
// csr2coo, coo2csr, nnz + dense2csr and the generic dense_to_sparse (CSR and
// COO). Matrix and vector entries are small multiples of 1/4, so every
// product and sum is exact in float whatever order the GPU adds them in:
// results are compared for equality.
//
// Prints "PASS rocsparse_ops" and exits 0, or names what differs and exits 1.

#include "hip_check.h"
#include <hip/hip_runtime.h>
#include <rocsparse/rocsparse.h>

#include <cstdint>
#include <cstdio>
#include <algorithm>
#include <cstdlib>
#include <vector>

#define CHECK_SPARSE(call)                                                               \
    do {                                                                                 \
        rocsparse_status s_ = (call);                                                    \
        if(s_ != rocsparse_status_success) {                                             \
            std::printf("FAIL %s:%d %s: rocsparse status %d\n", __FILE__, __LINE__, #call, \
                        (int)s_);                                                        \
            std::exit(1);                                                                \
        }                                                                                \
    } while(0)


template <class T>
static void expect_equal(const char* what, const std::vector<T>& got, const std::vector<T>& want)
{
    if(got.size() != want.size()) {
        std::printf("FAIL %s: %zu elements, expected %zu\n", what, got.size(), want.size());
        ++failures;
        return;
    }
    size_t bad = 0;
    for(size_t i = 0; i < got.size(); ++i) {
        if(!(got[i] == want[i])) {
            if(bad < 5)
                std::printf("  %s[%zu] = %g, expected %g\n", what, i, (double)got[i],
                            (double)want[i]);
            ++bad;
        }
    }
    if(bad) {
        std::printf("FAIL %s: %zu of %zu elements differ\n", what, bad, got.size());
        ++failures;
    } else {
        std::printf("ok   %s (%zu elements)\n", what, got.size());
    }
}

// A small deterministic generator (the test must not depend on libc's rand).
static uint32_t lcg_state = 12345u;
static uint32_t next_random()
{
    lcg_state = lcg_state * 1664525u + 1013904223u;
    return lcg_state >> 8;
}
// A nonzero multiple of 1/4 in [-2, 2]
static float quarter()
{
    int k = (int)(next_random() % 16) - 8;
    return (k >= 0 ? k + 1 : k) * 0.25f;
}

int main()
{
    const int m = 257, n = 190;

    // ---------------------------------------------------------- the matrix
    // row 0 empty, row 5 full (a long row for the adaptive kernel's long-row
    // path), rows 100..103 empty, the rest about 4% dense
    std::vector<int> row_ptr(m + 1, 0), col_ind, coo_row;
    std::vector<float> val;
    for(int r = 0; r < m; ++r) {
        for(int c = 0; c < n; ++c) {
            bool present = r == 5 || (r != 0 && (r < 100 || r > 103) && next_random() % 25 == 0);
            if(present) {
                col_ind.push_back(c);
                coo_row.push_back(r);
                val.push_back(quarter());
            }
        }
        row_ptr[r + 1] = (int)col_ind.size();
    }
    const int nnz = (int)col_ind.size();
    std::vector<float> dense((size_t)m * n, 0.0f);   // column major, ld = m
    for(int r = 0; r < m; ++r)
        for(int k = row_ptr[r]; k < row_ptr[r + 1]; ++k)
            dense[(size_t)col_ind[k] * m + r] = val[k];
    std::vector<float> x(n), y0(m);
    for(auto& v : x)
        v = quarter();
    for(auto& v : y0)
        v = quarter();
    const float alpha = 2.0f, beta = -0.5f;
    std::vector<float> y_want(m);
    for(int r = 0; r < m; ++r) {
        float sum = 0.0f;
        for(int k = row_ptr[r]; k < row_ptr[r + 1]; ++k)
            sum += val[k] * x[col_ind[k]];
        y_want[r] = alpha * sum + beta * y0[r];
    }
    std::printf("matrix %d x %d, %d nonzeros\n", m, n, nnz);

    rocsparse_handle handle;
    CHECK_SPARSE(rocsparse_create_handle(&handle));
    rocsparse_mat_descr descr;
    CHECK_SPARSE(rocsparse_create_mat_descr(&descr));   // general, base zero

    int* d_row_ptr = to_device(row_ptr);
    int* d_col_ind = to_device(col_ind);
    int* d_coo_row = to_device(coo_row);
    float* d_val = to_device(val);
    float* d_x = to_device(x);
    float* d_y = to_device(y0);

    // ---------------------------------------------------- csr2coo, coo2csr
    {
        int* d_rows = to_device(std::vector<int>(nnz, -1));
        CHECK_SPARSE(rocsparse_csr2coo(handle, d_row_ptr, nnz, m, d_rows,
                                       rocsparse_index_base_zero));
        CHECK(hipDeviceSynchronize());
        expect_equal("csr2coo rows", to_host(d_rows, nnz), coo_row);
        CHECK(hipFree(d_rows));

        int* d_ptr = to_device(std::vector<int>(m + 1, -1));
        CHECK_SPARSE(rocsparse_coo2csr(handle, d_coo_row, nnz, m, d_ptr,
                                       rocsparse_index_base_zero));
        CHECK(hipDeviceSynchronize());
        expect_equal("coo2csr row_ptr", to_host(d_ptr, m + 1), row_ptr);
        CHECK(hipFree(d_ptr));
    }

    // ------------------------------------------------------- csrmv, coomv
    {
        CHECK_SPARSE(rocsparse_scsrmv(handle, rocsparse_operation_none, m, n, nnz, &alpha,
                                      descr, d_val, d_row_ptr, d_col_ind, nullptr, d_x, &beta,
                                      d_y));
        CHECK(hipDeviceSynchronize());
        expect_equal("csrmv y", to_host(d_y, m), y_want);

        rocsparse_mat_info info;
        CHECK_SPARSE(rocsparse_create_mat_info(&info));
        CHECK_SPARSE(rocsparse_scsrmv_analysis(handle, rocsparse_operation_none, m, n, nnz,
                                               descr, d_val, d_row_ptr, d_col_ind, info));
        CHECK(hipMemcpy(d_y, y0.data(), sizeof(float) * m, hipMemcpyHostToDevice));
        CHECK_SPARSE(rocsparse_scsrmv(handle, rocsparse_operation_none, m, n, nnz, &alpha,
                                      descr, d_val, d_row_ptr, d_col_ind, info, d_x, &beta,
                                      d_y));
        CHECK(hipDeviceSynchronize());
        expect_equal("csrmv adaptive y", to_host(d_y, m), y_want);
        CHECK_SPARSE(rocsparse_csrmv_clear(handle, info));
        CHECK_SPARSE(rocsparse_destroy_mat_info(info));

        CHECK(hipMemcpy(d_y, y0.data(), sizeof(float) * m, hipMemcpyHostToDevice));
        CHECK_SPARSE(rocsparse_scoomv(handle, rocsparse_operation_none, m, n, nnz, &alpha, descr,
                                      d_val, d_coo_row, d_col_ind, d_x, &beta, d_y));
        CHECK(hipDeviceSynchronize());
        expect_equal("coomv y", to_host(d_y, m), y_want);
    }

    // --------------------------------------------- transposed csrmv: A^T x
    {
        std::vector<float> xt(m), yt0(n), yt_want(n);
        for(auto& v : xt)
            v = quarter();
        for(auto& v : yt0)
            v = quarter();
        for(int c = 0; c < n; ++c)
            yt_want[c] = 0.0f;
        for(int r = 0; r < m; ++r)
            for(int k = row_ptr[r]; k < row_ptr[r + 1]; ++k)
                yt_want[col_ind[k]] += val[k] * xt[r];
        for(int c = 0; c < n; ++c)
            yt_want[c] = alpha * yt_want[c] + beta * yt0[c];
        float* d_xt = to_device(xt);
        float* d_yt = to_device(yt0);
        CHECK_SPARSE(rocsparse_scsrmv(handle, rocsparse_operation_transpose, m, n, nnz, &alpha,
                                      descr, d_val, d_row_ptr, d_col_ind, nullptr, d_xt, &beta,
                                      d_yt));
        CHECK(hipDeviceSynchronize());
        expect_equal("csrmv transposed y", to_host(d_yt, n), yt_want);
        CHECK(hipFree(d_xt));
        CHECK(hipFree(d_yt));
    }

    // --------------- long rows: the adaptive kernel splits a row over groups
    {
        const int lm = 3, ln = 12000;
        std::vector<int> lptr(lm + 1), lcol;
        std::vector<float> lval, lx(ln), ly0(lm), ly_want(lm);
        for(auto& v : lx)
            v = quarter();
        for(int r = 0; r < lm; ++r) {
            // row 1 short, rows 0 and 2 long
            for(int c = 0; c < ln; c += (r == 1 ? 997 : 1)) {
                lcol.push_back(c);
                lval.push_back(quarter());
            }
            lptr[r + 1] = (int)lcol.size();
        }
        for(int r = 0; r < lm; ++r) {
            float sum = 0.0f;
            for(int k = lptr[r]; k < lptr[r + 1]; ++k)
                sum += lval[k] * lx[lcol[k]];
            ly0[r] = quarter();
            ly_want[r] = alpha * sum + beta * ly0[r];
        }
        const int lnnz = (int)lcol.size();
        int* d_lptr = to_device(lptr);
        int* d_lcol = to_device(lcol);
        float* d_lval = to_device(lval);
        float* d_lx = to_device(lx);
        float* d_ly = to_device(ly0);
        rocsparse_mat_info info;
        CHECK_SPARSE(rocsparse_create_mat_info(&info));
        CHECK_SPARSE(rocsparse_scsrmv_analysis(handle, rocsparse_operation_none, lm, ln, lnnz,
                                               descr, d_lval, d_lptr, d_lcol, info));
        CHECK_SPARSE(rocsparse_scsrmv(handle, rocsparse_operation_none, lm, ln, lnnz, &alpha,
                                      descr, d_lval, d_lptr, d_lcol, info, d_lx, &beta, d_ly));
        CHECK(hipDeviceSynchronize());
        expect_equal("csrmv adaptive long rows y", to_host(d_ly, lm), ly_want);
        CHECK_SPARSE(rocsparse_destroy_mat_info(info));
        CHECK(hipFree(d_lptr));
        CHECK(hipFree(d_lcol));
        CHECK(hipFree(d_lval));
        CHECK(hipFree(d_lx));
        CHECK(hipFree(d_ly));
    }

    // ----------- csrsv: lower triangular solve, rows waiting on other rows
    {
        // every row depends on the one before it and on a few earlier ones:
        // a chain through all 10 work-groups (16 rows each; a wave per row
        // spins until the rows it needs are done); diagonals are powers of
        // two, so with y_true on the quarter grid every step is exact. (The
        // executor resolves one link of such a chain per fair turn of its
        // scheduler: hundreds of spinning steps each, so the chain is short.)
        const int tm = 160;
        std::vector<int> tptr(tm + 1, 0), tcol;
        std::vector<float> tval, y_true(tm), rhs(tm);
        const float diagonals[4] = {1.0f, 2.0f, 0.5f, 4.0f};
        for(int r = 0; r < tm; ++r) {
            y_true[r] = quarter();
            std::vector<int> cols;
            for(int k = 0; k < 3 && r > 1; ++k)
                cols.push_back((int)(next_random() % (uint32_t)(r - 1)));
            if(r > 0)
                cols.push_back(r - 1);
            std::sort(cols.begin(), cols.end());
            cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
            for(int c : cols) {
                tcol.push_back(c);
                tval.push_back(quarter());
            }
            tcol.push_back(r);
            tval.push_back(diagonals[r % 4]);
            tptr[r + 1] = (int)tcol.size();
        }
        for(int r = 0; r < tm; ++r) {
            float sum = 0.0f;
            for(int k = tptr[r]; k < tptr[r + 1]; ++k)
                sum += tval[k] * y_true[tcol[k]];
            rhs[r] = sum;
        }
        const int tnnz = (int)tcol.size();
        int* d_tptr = to_device(tptr);
        int* d_tcol = to_device(tcol);
        float* d_tval = to_device(tval);
        float* d_rhs = to_device(rhs);
        float* d_sol = to_device(std::vector<float>(tm, -99.0f));
        rocsparse_mat_descr lower;
        CHECK_SPARSE(rocsparse_create_mat_descr(&lower));
        CHECK_SPARSE(rocsparse_set_mat_fill_mode(lower, rocsparse_fill_mode_lower));
        CHECK_SPARSE(rocsparse_set_mat_diag_type(lower, rocsparse_diag_type_non_unit));
        rocsparse_mat_info info;
        CHECK_SPARSE(rocsparse_create_mat_info(&info));
        size_t buffer_size = 0;
        CHECK_SPARSE(rocsparse_scsrsv_buffer_size(handle, rocsparse_operation_none, tm, tnnz,
                                                  lower, d_tval, d_tptr, d_tcol, info,
                                                  &buffer_size));
        void* buffer = nullptr;
        CHECK(hipMalloc(&buffer, buffer_size ? buffer_size : 4));
        CHECK_SPARSE(rocsparse_scsrsv_analysis(handle, rocsparse_operation_none, tm, tnnz, lower,
                                               d_tval, d_tptr, d_tcol, info,
                                               rocsparse_analysis_policy_force,
                                               rocsparse_solve_policy_auto, buffer));
        const float one = 1.0f;
        CHECK_SPARSE(rocsparse_scsrsv_solve(handle, rocsparse_operation_none, tm, tnnz, &one,
                                            lower, d_tval, d_tptr, d_tcol, info, d_rhs, d_sol,
                                            rocsparse_solve_policy_auto, buffer));
        CHECK(hipDeviceSynchronize());
        rocsparse_int pivot = -2;
        CHECK_SPARSE(rocsparse_set_pointer_mode(handle, rocsparse_pointer_mode_host));
        const rocsparse_status status = rocsparse_csrsv_zero_pivot(handle, lower, info, &pivot);
        if(status != rocsparse_status_success || pivot != -1) {
            std::printf("FAIL csrsv zero pivot: status %d, position %d\n", (int)status, pivot);
            ++failures;
        }
        expect_equal("csrsv lower solve y", to_host(d_sol, tm), y_true);
        CHECK_SPARSE(rocsparse_csrsv_clear(handle, lower, info));
        CHECK_SPARSE(rocsparse_destroy_mat_info(info));
        CHECK_SPARSE(rocsparse_destroy_mat_descr(lower));
        CHECK(hipFree(buffer));
        CHECK(hipFree(d_tptr));
        CHECK(hipFree(d_tcol));
        CHECK(hipFree(d_tval));
        CHECK(hipFree(d_rhs));
        CHECK(hipFree(d_sol));
    }

    // ----------------------------------------------------- nnz + dense2csr
    float* d_dense = to_device(dense);
    {
        std::vector<int> want_per_row(m);
        for(int r = 0; r < m; ++r)
            want_per_row[r] = row_ptr[r + 1] - row_ptr[r];
        int* d_per_row = to_device(std::vector<int>(m, -1));
        int total = -1;
        CHECK_SPARSE(rocsparse_set_pointer_mode(handle, rocsparse_pointer_mode_host));
        CHECK_SPARSE(rocsparse_snnz(handle, rocsparse_direction_row, m, n, descr, d_dense, m,
                                    d_per_row, &total));
        expect_equal("nnz per row", to_host(d_per_row, m), want_per_row);
        if(total != nnz) {
            std::printf("FAIL nnz total %d, expected %d\n", total, nnz);
            ++failures;
        }
        int* d_ptr = to_device(std::vector<int>(m + 1, -1));
        int* d_col = to_device(std::vector<int>(nnz, -1));
        float* d_v = to_device(std::vector<float>(nnz, -99.0f));
        CHECK_SPARSE(rocsparse_sdense2csr(handle, m, n, descr, d_dense, m, d_per_row, d_v, d_ptr,
                                          d_col));
        CHECK(hipDeviceSynchronize());
        expect_equal("dense2csr row_ptr", to_host(d_ptr, m + 1), row_ptr);
        expect_equal("dense2csr col_ind", to_host(d_col, nnz), col_ind);
        expect_equal("dense2csr val", to_host(d_v, nnz), val);
        CHECK(hipFree(d_per_row));
        CHECK(hipFree(d_ptr));
        CHECK(hipFree(d_col));
        CHECK(hipFree(d_v));
    }

    // ------------------------------------- generic dense_to_sparse: CSR, COO
    {
        rocsparse_dnmat_descr mat_a;
        CHECK_SPARSE(rocsparse_create_dnmat_descr(&mat_a, m, n, m, d_dense, rocsparse_datatype_f32_r,
                                                  rocsparse_order_column));
        for(int format = 0; format < 2; ++format) {
            const bool csr = format == 0;
            int* d_ptr = to_device(std::vector<int>(csr ? m + 1 : 1, -1));
            rocsparse_spmat_descr mat_b;
            if(csr)
                CHECK_SPARSE(rocsparse_create_csr_descr(&mat_b, m, n, 0, d_ptr, nullptr, nullptr,
                                                        rocsparse_indextype_i32,
                                                        rocsparse_indextype_i32,
                                                        rocsparse_index_base_zero,
                                                        rocsparse_datatype_f32_r));
            else
                CHECK_SPARSE(rocsparse_create_coo_descr(&mat_b, m, n, 0, nullptr, nullptr, nullptr,
                                                        rocsparse_indextype_i32,
                                                        rocsparse_index_base_zero,
                                                        rocsparse_datatype_f32_r));
            size_t buffer_size = 0;
            CHECK_SPARSE(rocsparse_dense_to_sparse(handle, mat_a, mat_b,
                                                   rocsparse_dense_to_sparse_alg_default,
                                                   &buffer_size, nullptr));
            void* buffer = nullptr;
            CHECK(hipMalloc(&buffer, buffer_size ? buffer_size : 4));
            // analysis (no buffer_size): the number of nonzeros
            CHECK_SPARSE(rocsparse_dense_to_sparse(handle, mat_a, mat_b,
                                                   rocsparse_dense_to_sparse_alg_default,
                                                   nullptr, buffer));
            int64_t rows = 0, cols = 0, got_nnz = 0;
            CHECK_SPARSE(rocsparse_spmat_get_size(mat_b, &rows, &cols, &got_nnz));
            const char* name = csr ? "dense_to_sparse csr" : "dense_to_sparse coo";
            if(got_nnz != nnz) {
                std::printf("FAIL %s nnz %lld, expected %d\n", name, (long long)got_nnz, nnz);
                ++failures;
            } else {
                int* d_rows = to_device(std::vector<int>(nnz, -1));
                int* d_col = to_device(std::vector<int>(nnz, -1));
                float* d_v = to_device(std::vector<float>(nnz, -99.0f));
                if(csr)
                    CHECK_SPARSE(rocsparse_csr_set_pointers(mat_b, d_ptr, d_col, d_v));
                else
                    CHECK_SPARSE(rocsparse_coo_set_pointers(mat_b, d_rows, d_col, d_v));
                CHECK_SPARSE(rocsparse_dense_to_sparse(handle, mat_a, mat_b,
                                                       rocsparse_dense_to_sparse_alg_default,
                                                       &buffer_size, buffer));
                CHECK(hipDeviceSynchronize());
                if(csr) {
                    expect_equal("dense_to_sparse csr row_ptr", to_host(d_ptr, m + 1), row_ptr);
                    expect_equal("dense_to_sparse csr col_ind", to_host(d_col, nnz), col_ind);
                    expect_equal("dense_to_sparse csr val", to_host(d_v, nnz), val);
                } else {
                    expect_equal("dense_to_sparse coo rows", to_host(d_rows, nnz), coo_row);
                    expect_equal("dense_to_sparse coo col_ind", to_host(d_col, nnz), col_ind);
                    expect_equal("dense_to_sparse coo val", to_host(d_v, nnz), val);
                }
                CHECK(hipFree(d_rows));
                CHECK(hipFree(d_col));
                CHECK(hipFree(d_v));
            }
            CHECK_SPARSE(rocsparse_destroy_spmat_descr(mat_b));
            CHECK(hipFree(buffer));
            CHECK(hipFree(d_ptr));
        }
        CHECK_SPARSE(rocsparse_destroy_dnmat_descr(mat_a));
    }

    CHECK(hipFree(d_dense));
    CHECK(hipFree(d_row_ptr));
    CHECK(hipFree(d_col_ind));
    CHECK(hipFree(d_coo_row));
    CHECK(hipFree(d_val));
    CHECK(hipFree(d_x));
    CHECK(hipFree(d_y));
    CHECK_SPARSE(rocsparse_destroy_mat_descr(descr));
    CHECK_SPARSE(rocsparse_destroy_handle(handle));

    if(failures) {
        std::printf("FAIL rocsparse_ops: %d checks failed\n", failures);
        return 1;
    }
    std::printf("PASS rocsparse_ops\n");
    return 0;
}
