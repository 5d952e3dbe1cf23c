/**
 * The WebAssembly text of the vector-scan kernel. Vectors are unit length, quantized to int16
 * (x · 32767), so `i32x4.dot_i16x8_s` does 8 multiply-adds per instruction and a 384-d dot product
 * cannot overflow int32 (Cauchy–Schwarz bounds it by 32767²). About 5× a plain JS float scan.
 * `int16-dot-kernel.ts` holds the compiled bytes; a unit test recompiles this text and compares.
 */
export const INT16_DOT_WAT = `
(module
  (memory (export "memory") 1)
  ;; out[i] = dot(vec[i], query) for i in [0, n); rows of dims int16, dims a multiple of 32
  (func (export "scan") (param $vec i32) (param $query i32) (param $n i32) (param $dims i32) (param $out i32)
    (local $i i32) (local $j i32) (local $v i32) (local $bytes i32)
    (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128)
    (local.set $bytes (i32.shl (local.get $dims) (i32.const 1)))
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
          (local.set $a0 (i32x4.add (local.get $a0) (i32x4.dot_i16x8_s (v128.load (i32.add (local.get $v) (local.get $j))) (v128.load (i32.add (local.get $query) (local.get $j))))))
          (local.set $a1 (i32x4.add (local.get $a1) (i32x4.dot_i16x8_s (v128.load offset=16 (i32.add (local.get $v) (local.get $j))) (v128.load offset=16 (i32.add (local.get $query) (local.get $j))))))
          (local.set $a2 (i32x4.add (local.get $a2) (i32x4.dot_i16x8_s (v128.load offset=32 (i32.add (local.get $v) (local.get $j))) (v128.load offset=32 (i32.add (local.get $query) (local.get $j))))))
          (local.set $a3 (i32x4.add (local.get $a3) (i32x4.dot_i16x8_s (v128.load offset=48 (i32.add (local.get $v) (local.get $j))) (v128.load offset=48 (i32.add (local.get $query) (local.get $j))))))
          (local.set $j (i32.add (local.get $j) (i32.const 64)))
          (br_if $cols (i32.lt_u (local.get $j) (local.get $bytes))))
        (local.set $a0 (i32x4.add (i32x4.add (local.get $a0) (local.get $a1)) (i32x4.add (local.get $a2) (local.get $a3))))
        (i32.store (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 2)))
          (i32.add (i32.add (i32x4.extract_lane 0 (local.get $a0)) (i32x4.extract_lane 1 (local.get $a0)))
                   (i32.add (i32x4.extract_lane 2 (local.get $a0)) (i32x4.extract_lane 3 (local.get $a0)))))
        (local.set $v (i32.add (local.get $v) (local.get $bytes)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $rows)))))
`;
