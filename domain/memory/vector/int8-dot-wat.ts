/**
 * The WebAssembly text of the vector-scan kernel. Rows are int8 (each vector scaled by 127 over
 * its largest component), the query int16 (scaled by 32767 over its largest); each 16 bytes of a
 * row are widened to two i16x8 and `i32x4.dot_i16x8_s` does 8 multiply-adds per instruction. A
 * scan of a large partition is bound by memory bandwidth, so one byte per dimension reads half
 * what int16 rows did: about 2× faster at 100,000 rows. The sum cannot overflow int32: 384 · 127 ·
 * 32767 < 2³¹. `int8-dot-kernel.ts` holds the compiled bytes; a unit test recompiles this text and
 * compares.
 *
 * For a large partition (sign-codes.ts): `hamming`, the bits two sign codes differ in, row by row;
 * `histogram` and `select`, the rows within a distance of the query; `scan_rows`, the int8 scan of
 * listed rows only.
 */
export const INT8_DOT_WAT = `
(module
  (memory (export "memory") 1)
  ;; out[i] = dot(vec[i], query) for i in [0, n); rows of dims int8, query of dims int16, dims a multiple of 32
  (func $scan (export "scan") (param $vec i32) (param $query i32) (param $n i32) (param $dims i32) (param $out i32)
    (local $i i32) (local $j i32) (local $v i32) (local $q i32) (local $r v128)
    (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128)
    (local.set $v (local.get $vec))
    (block $done
      (loop $rows
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $a0 (v128.const i32x4 0 0 0 0))
        (local.set $a1 (v128.const i32x4 0 0 0 0))
        (local.set $a2 (v128.const i32x4 0 0 0 0))
        (local.set $a3 (v128.const i32x4 0 0 0 0))
        (local.set $j (i32.const 0))
        (loop $cols
          (local.set $q (i32.add (local.get $query) (i32.shl (local.get $j) (i32.const 1))))
          (local.set $r (v128.load (i32.add (local.get $v) (local.get $j))))
          (local.set $a0 (i32x4.add (local.get $a0) (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $r)) (v128.load (local.get $q)))))
          (local.set $a1 (i32x4.add (local.get $a1) (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $r)) (v128.load offset=16 (local.get $q)))))
          (local.set $r (v128.load offset=16 (i32.add (local.get $v) (local.get $j))))
          (local.set $a2 (i32x4.add (local.get $a2) (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $r)) (v128.load offset=32 (local.get $q)))))
          (local.set $a3 (i32x4.add (local.get $a3) (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $r)) (v128.load offset=48 (local.get $q)))))
          (local.set $j (i32.add (local.get $j) (i32.const 32)))
          (br_if $cols (i32.lt_u (local.get $j) (local.get $dims))))
        (local.set $a0 (i32x4.add (i32x4.add (local.get $a0) (local.get $a1)) (i32x4.add (local.get $a2) (local.get $a3))))
        (i32.store (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 2)))
          (i32.add (i32.add (i32x4.extract_lane 0 (local.get $a0)) (i32x4.extract_lane 1 (local.get $a0)))
                   (i32.add (i32x4.extract_lane 2 (local.get $a0)) (i32x4.extract_lane 3 (local.get $a0)))))
        (local.set $v (i32.add (local.get $v) (local.get $dims)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $rows))))
  ;; out[k] = dot(vec[idx[k]], query) for k in [0, m): the int8 scan of the listed rows only, two
  ;; rows at a time: listed rows lie far apart, and reading two at once keeps more loads in flight
  (func (export "scan_rows") (param $vec i32) (param $query i32) (param $idx i32) (param $m i32) (param $dims i32) (param $out i32)
    (local $k i32) (local $j i32) (local $va i32) (local $vb i32) (local $q i32)
    (local $ra v128) (local $rb v128) (local $q0 v128) (local $q1 v128)
    (local $a0 v128) (local $a1 v128) (local $b0 v128) (local $b1 v128)
    (block $done
      (loop $pairs
        (br_if $done (i32.ge_u (i32.add (local.get $k) (i32.const 1)) (local.get $m)))
        (local.set $va (i32.add (local.get $vec) (i32.mul (i32.load (i32.add (local.get $idx) (i32.shl (local.get $k) (i32.const 2)))) (local.get $dims))))
        (local.set $vb (i32.add (local.get $vec) (i32.mul (i32.load offset=4 (i32.add (local.get $idx) (i32.shl (local.get $k) (i32.const 2)))) (local.get $dims))))
        (local.set $a0 (v128.const i32x4 0 0 0 0))
        (local.set $a1 (v128.const i32x4 0 0 0 0))
        (local.set $b0 (v128.const i32x4 0 0 0 0))
        (local.set $b1 (v128.const i32x4 0 0 0 0))
        (local.set $j (i32.const 0))
        (loop $cols
          (local.set $q (i32.add (local.get $query) (i32.shl (local.get $j) (i32.const 1))))
          (local.set $ra (v128.load (i32.add (local.get $va) (local.get $j))))
          (local.set $rb (v128.load (i32.add (local.get $vb) (local.get $j))))
          (local.set $q0 (v128.load (local.get $q)))
          (local.set $q1 (v128.load offset=16 (local.get $q)))
          (local.set $a0 (i32x4.add (local.get $a0) (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $ra)) (local.get $q0))))
          (local.set $a1 (i32x4.add (local.get $a1) (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $ra)) (local.get $q1))))
          (local.set $b0 (i32x4.add (local.get $b0) (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $rb)) (local.get $q0))))
          (local.set $b1 (i32x4.add (local.get $b1) (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $rb)) (local.get $q1))))
          (local.set $ra (v128.load offset=16 (i32.add (local.get $va) (local.get $j))))
          (local.set $rb (v128.load offset=16 (i32.add (local.get $vb) (local.get $j))))
          (local.set $q0 (v128.load offset=32 (local.get $q)))
          (local.set $q1 (v128.load offset=48 (local.get $q)))
          (local.set $a0 (i32x4.add (local.get $a0) (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $ra)) (local.get $q0))))
          (local.set $a1 (i32x4.add (local.get $a1) (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $ra)) (local.get $q1))))
          (local.set $b0 (i32x4.add (local.get $b0) (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $rb)) (local.get $q0))))
          (local.set $b1 (i32x4.add (local.get $b1) (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $rb)) (local.get $q1))))
          (local.set $j (i32.add (local.get $j) (i32.const 32)))
          (br_if $cols (i32.lt_u (local.get $j) (local.get $dims))))
        (local.set $a0 (i32x4.add (local.get $a0) (local.get $a1)))
        (local.set $b0 (i32x4.add (local.get $b0) (local.get $b1)))
        (i32.store (i32.add (local.get $out) (i32.shl (local.get $k) (i32.const 2)))
          (i32.add (i32.add (i32x4.extract_lane 0 (local.get $a0)) (i32x4.extract_lane 1 (local.get $a0)))
                   (i32.add (i32x4.extract_lane 2 (local.get $a0)) (i32x4.extract_lane 3 (local.get $a0)))))
        (i32.store offset=4 (i32.add (local.get $out) (i32.shl (local.get $k) (i32.const 2)))
          (i32.add (i32.add (i32x4.extract_lane 0 (local.get $b0)) (i32x4.extract_lane 1 (local.get $b0)))
                   (i32.add (i32x4.extract_lane 2 (local.get $b0)) (i32x4.extract_lane 3 (local.get $b0)))))
        (local.set $k (i32.add (local.get $k) (i32.const 2)))
        (br $pairs)))
    ;; an odd last row alone
    (if (i32.lt_u (local.get $k) (local.get $m))
      (then
        (call $scan
          (i32.add (local.get $vec) (i32.mul (i32.load (i32.add (local.get $idx) (i32.shl (local.get $k) (i32.const 2)))) (local.get $dims)))
          (local.get $query) (i32.const 1) (local.get $dims)
          (i32.add (local.get $out) (i32.shl (local.get $k) (i32.const 2)))))))
  ;; out[i] = the bits code i and the query's code differ in, for i in [0, n); codes of $words i32
  ;; words each: 16 bytes at a time (popcount per byte, summed pairwise), the rest a word at a time
  (func (export "hamming") (param $codes i32) (param $query i32) (param $n i32) (param $words i32) (param $out i32)
    (local $i i32) (local $w i32) (local $c i32) (local $h i32) (local $wide i32) (local $acc v128)
    (local.set $wide (i32.and (local.get $words) (i32.const -4)))
    (local.set $c (local.get $codes))
    (block $done
      (loop $rows
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $acc (v128.const i32x4 0 0 0 0))
        (local.set $w (i32.const 0))
        (block $simd_done
          (loop $simd
            (br_if $simd_done (i32.ge_u (local.get $w) (local.get $wide)))
            (local.set $acc (i16x8.add (local.get $acc) (i16x8.extadd_pairwise_i8x16_u (i8x16.popcnt (v128.xor
              (v128.load (i32.add (local.get $c) (i32.shl (local.get $w) (i32.const 2))))
              (v128.load (i32.add (local.get $query) (i32.shl (local.get $w) (i32.const 2)))))))))
            (local.set $w (i32.add (local.get $w) (i32.const 4)))
            (br $simd)))
        (local.set $acc (i32x4.extadd_pairwise_i16x8_u (local.get $acc)))
        (local.set $h (i32.add
          (i32.add (i32x4.extract_lane 0 (local.get $acc)) (i32x4.extract_lane 1 (local.get $acc)))
          (i32.add (i32x4.extract_lane 2 (local.get $acc)) (i32x4.extract_lane 3 (local.get $acc)))))
        (block $tail_done
          (loop $tail
            (br_if $tail_done (i32.ge_u (local.get $w) (local.get $words)))
            (local.set $h (i32.add (local.get $h) (i32.popcnt (i32.xor
              (i32.load (i32.add (local.get $c) (i32.shl (local.get $w) (i32.const 2))))
              (i32.load (i32.add (local.get $query) (i32.shl (local.get $w) (i32.const 2))))))))
            (local.set $w (i32.add (local.get $w) (i32.const 1)))
            (br $tail)))
        (i32.store (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 2))) (local.get $h))
        (local.set $c (i32.add (local.get $c) (i32.shl (local.get $words) (i32.const 2))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $rows))))
  ;; hist[dist[i]] += 1 for i in [0, n)
  (func (export "histogram") (param $dist i32) (param $n i32) (param $hist i32)
    (local $i i32) (local $at i32)
    (block $done
      (loop $each
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $at (i32.add (local.get $hist)
          (i32.shl (i32.load (i32.add (local.get $dist) (i32.shl (local.get $i) (i32.const 2)))) (i32.const 2))))
        (i32.store (local.get $at) (i32.add (i32.load (local.get $at)) (i32.const 1)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $each))))
  ;; the i in [0, n) with dist[i] <= cut, ascending, into out; answers how many
  (func (export "select") (param $dist i32) (param $n i32) (param $cut i32) (param $out i32) (result i32)
    (local $i i32) (local $m i32)
    (block $done
      (loop $each
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (if (i32.le_u (i32.load (i32.add (local.get $dist) (i32.shl (local.get $i) (i32.const 2)))) (local.get $cut))
          (then
            (i32.store (i32.add (local.get $out) (i32.shl (local.get $m) (i32.const 2))) (local.get $i))
            (local.set $m (i32.add (local.get $m) (i32.const 1)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $each)))
    (local.get $m))
)
`;
