;; countNewlines(): the newline bytes of `len` bytes at `ptr`, 16 at a time (countNewlinesInJs() of wordCount.ts).
;; countWords(): countWordsInJs() of src/domain/markdown/wordCount.ts, 16 bytes at a time: the words of `len` UTF-8 bytes at
;; `ptr`, where a word is a run of bytes that are not whitespace as JavaScript's \s (plus U+0085) sees
;; the decoded text. A 16-byte block without any first byte of a multi-byte Unicode space (C2, E1, E2,
;; E3, EF) is counted with vector compares; any other block, and the last few bytes, byte by byte
;; exactly as the JavaScript does. Plans are mostly ASCII prose, so most blocks take the vector path.
(module
  (memory (export "memory") 1)

  ;; The UTF-8 length of the Unicode space starting at $p (bytes up to $end exist), else 0.
  (func $unicodeSpaceLength (param $p i32) (param $end i32) (result i32)
    (local $c i32) (local $d i32) (local $e i32)
    (local.set $c (i32.load8_u (local.get $p)))
    (local.set $d (i32.const -1))
    (local.set $e (i32.const -1))
    (if (i32.lt_u (i32.add (local.get $p) (i32.const 1)) (local.get $end))
      (then (local.set $d (i32.load8_u offset=1 (local.get $p)))))
    (if (i32.lt_u (i32.add (local.get $p) (i32.const 2)) (local.get $end))
      (then (local.set $e (i32.load8_u offset=2 (local.get $p)))))
    (if (i32.eq (local.get $c) (i32.const 0xc2))
      (then (return (select (i32.const 2) (i32.const 0)
        (i32.or (i32.eq (local.get $d) (i32.const 0x85)) (i32.eq (local.get $d) (i32.const 0xa0)))))))
    (if (i32.eq (local.get $c) (i32.const 0xe1))
      (then (return (select (i32.const 3) (i32.const 0)
        (i32.and (i32.eq (local.get $d) (i32.const 0x9a)) (i32.eq (local.get $e) (i32.const 0x80)))))))
    (if (i32.eq (local.get $c) (i32.const 0xe2))
      (then
        (if (i32.eq (local.get $d) (i32.const 0x80))
          (then (return (select (i32.const 3) (i32.const 0)
            (i32.or
              ;; E2 80 80 .. E2 80 8A (a missing byte is -1, far out of this unsigned range)
              (i32.le_u (i32.sub (local.get $e) (i32.const 0x80)) (i32.const 0x0a))
              (i32.or (i32.eq (local.get $e) (i32.const 0xa8))
                (i32.or (i32.eq (local.get $e) (i32.const 0xa9)) (i32.eq (local.get $e) (i32.const 0xaf)))))))))
        (return (select (i32.const 3) (i32.const 0)
          (i32.and (i32.eq (local.get $d) (i32.const 0x81)) (i32.eq (local.get $e) (i32.const 0x9f)))))))
    (if (i32.eq (local.get $c) (i32.const 0xe3))
      (then (return (select (i32.const 3) (i32.const 0)
        (i32.and (i32.eq (local.get $d) (i32.const 0x80)) (i32.eq (local.get $e) (i32.const 0x80)))))))
    (if (i32.eq (local.get $c) (i32.const 0xef))
      (then (return (select (i32.const 3) (i32.const 0)
        (i32.and (i32.eq (local.get $d) (i32.const 0xbb)) (i32.eq (local.get $e) (i32.const 0xbf)))))))
    (i32.const 0))

  (func (export "countNewlines") (param $ptr i32) (param $len i32) (result i32)
    (local $i i32) (local $end i32) (local $blocks i32) (local $newlines i32)
    (local.set $i (local.get $ptr))
    (local.set $end (i32.add (local.get $ptr) (local.get $len)))
    ;; Whole 16-byte blocks: a lane is all ones where the byte is 0x0A, and the bitmask's bits count them.
    (local.set $blocks (i32.sub (local.get $end) (i32.and (local.get $len) (i32.const 15))))
    (block $tail
      (loop $vector
        (br_if $tail (i32.ge_u (local.get $i) (local.get $blocks)))
        (local.set $newlines (i32.add (local.get $newlines)
          (i32.popcnt (i8x16.bitmask (i8x16.eq (v128.load (local.get $i))
            (v128.const i8x16 10 10 10 10 10 10 10 10 10 10 10 10 10 10 10 10))))))
        (local.set $i (i32.add (local.get $i) (i32.const 16)))
        (br $vector)))
    ;; The last bytes one by one.
    (block $done
      (loop $bytes
        (br_if $done (i32.ge_u (local.get $i) (local.get $end)))
        (local.set $newlines (i32.add (local.get $newlines) (i32.eq (i32.load8_u (local.get $i)) (i32.const 10))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $bytes)))
    (local.get $newlines))

  (func (export "countWords") (param $ptr i32) (param $len i32) (result i32)
    (local $i i32) (local $end i32) (local $limit i32) (local $words i32) (local $after i32)
    (local $c i32) (local $space i32) (local $length i32)
    (local $v v128) (local $s v128) (local $previous v128)
    (local.set $i (local.get $ptr))
    (local.set $end (i32.add (local.get $ptr) (local.get $len)))
    ;; 1 while the previous byte ended a space (or at the start): the next other byte starts a word.
    (local.set $after (i32.const 1))
    (block $done
      (loop $blocks
        (br_if $done (i32.ge_u (local.get $i) (local.get $end)))
        (local.set $limit (local.get $end))
        (if (i32.le_u (i32.add (local.get $i) (i32.const 16)) (local.get $end))
          (then
            (local.set $v (v128.load (local.get $i)))
            (if (v128.any_true
                  (v128.or
                    (v128.or (i8x16.eq (local.get $v) (v128.const i8x16 0xc2 0xc2 0xc2 0xc2 0xc2 0xc2 0xc2 0xc2 0xc2 0xc2 0xc2 0xc2 0xc2 0xc2 0xc2 0xc2))
                             (i8x16.eq (local.get $v) (v128.const i8x16 0xe1 0xe1 0xe1 0xe1 0xe1 0xe1 0xe1 0xe1 0xe1 0xe1 0xe1 0xe1 0xe1 0xe1 0xe1 0xe1)))
                    (v128.or
                      (v128.or (i8x16.eq (local.get $v) (v128.const i8x16 0xe2 0xe2 0xe2 0xe2 0xe2 0xe2 0xe2 0xe2 0xe2 0xe2 0xe2 0xe2 0xe2 0xe2 0xe2 0xe2))
                               (i8x16.eq (local.get $v) (v128.const i8x16 0xe3 0xe3 0xe3 0xe3 0xe3 0xe3 0xe3 0xe3 0xe3 0xe3 0xe3 0xe3 0xe3 0xe3 0xe3 0xe3)))
                      (i8x16.eq (local.get $v) (v128.const i8x16 0xef 0xef 0xef 0xef 0xef 0xef 0xef 0xef 0xef 0xef 0xef 0xef 0xef 0xef 0xef 0xef)))))
              (then (local.set $limit (i32.add (local.get $i) (i32.const 16))))
              (else
                ;; ASCII whitespace: 0x20, or 0x09..0x0D (byte - 9 <= 4, unsigned).
                (local.set $s
                  (v128.or
                    (i8x16.eq (local.get $v) (v128.const i8x16 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32))
                    (i8x16.le_u (i8x16.sub (local.get $v) (v128.const i8x16 9 9 9 9 9 9 9 9 9 9 9 9 9 9 9 9))
                                (v128.const i8x16 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4))))
                ;; Each byte's predecessor: the previous block's last state, then this block's bytes 0..14.
                (local.set $previous
                  (i8x16.shuffle 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30
                    (i8x16.splat (i32.sub (i32.const 0) (local.get $after)))
                    (local.get $s)))
                ;; A word starts where the predecessor is a space and the byte is not.
                (local.set $words (i32.add (local.get $words)
                  (i32.popcnt (i8x16.bitmask (v128.andnot (local.get $previous) (local.get $s))))))
                (local.set $after (i32.and (i8x16.extract_lane_u 15 (local.get $s)) (i32.const 1)))
                (local.set $i (i32.add (local.get $i) (i32.const 16)))
                (br $blocks)))))
        ;; Byte by byte up to $limit (a Unicode space may run up to two bytes past it).
        (loop $bytes
          (local.set $c (i32.load8_u (local.get $i)))
          (local.set $space (i32.or (i32.eq (local.get $c) (i32.const 32))
                                    (i32.le_u (i32.sub (local.get $c) (i32.const 9)) (i32.const 4))))
          (if (i32.ge_u (local.get $c) (i32.const 0xc2))
            (then
              (local.set $length (call $unicodeSpaceLength (local.get $i) (local.get $end)))
              (if (local.get $length)
                (then
                  (local.set $space (i32.const 1))
                  (local.set $i (i32.add (local.get $i) (i32.sub (local.get $length) (i32.const 1))))))))
          (local.set $words (i32.add (local.get $words)
            (i32.and (local.get $after) (i32.xor (local.get $space) (i32.const 1)))))
          (local.set $after (local.get $space))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br_if $bytes (i32.lt_u (local.get $i) (local.get $limit))))
        (br $blocks)))
    (local.get $words)))
