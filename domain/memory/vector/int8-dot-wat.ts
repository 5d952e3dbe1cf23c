/**
 * The WebAssembly text of the vector-scan kernel. Rows are int8 (each vector scaled by 127 over
 * its largest component), the query int16 (scaled by 32767 over its largest); each 16 bytes of a
 * row are widened to two i16x8 and `i32x4.dot_i16x8_s` does 8 multiply-adds per instruction. A
 * scan of a large partition is bound by memory bandwidth, so one byte per dimension reads half
 * what int16 rows did: about 2× faster at 100,000 rows. The sum cannot overflow int32: 384 · 127 ·
 * 32767 < 2³¹. `int8-dot-kernel.ts` holds the compiled bytes; a unit test recompiles this text and
 * compares.
 */
export const INT8_DOT_WAT = `
(module
  (memory (export "memory") 1)
  ;; out[i] = dot(vec[i], query) for i in [0, n); rows of dims int8, query of dims int16, dims a multiple of 32
  (func (export "scan") (param $vec i32) (param $query i32) (param $n i32) (param $dims i32) (param $out i32)
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
        (br $rows)))))
`;
