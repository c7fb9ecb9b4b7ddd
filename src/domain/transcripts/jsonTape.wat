;; tokenize(): one transcript line (UTF-8 JSON text at [start, end) of this memory) validated exactly as
;; JSON.parse of its decoded text would accept it, with a top-level object, nested at most 128 deep; and
;; its structure written as a tape (jsonTape.ts reads it): one 16-byte token per value at depth <= maxDepth
;; (the top-level object is depth 0) and one before each object member's value for its key.
;;
;; A token is four i32: kind | escaped << 4 | depth << 8; start and end (byte offsets from `start`: strings
;; and keys with their quotes, containers with both brackets); then, for a key, the FNV-1a hash of its raw
;; bytes between the quotes, and for a value the index of the token after it (a container: after its last
;; token, patched when it closes). Kinds: 1 object, 2 array, 3 string, 4 number, 5 true, 6 false, 7 null,
;; 8 key.
;;
;; Returns the number of tokens, or -1 (not a JSON object), -2 (nested deeper than 128), -3 (more than
;; `cap` tokens). Memory [0, 1024) is the stack of open containers (kind byte at depth d, token index at
;; 512 + 4d); the caller puts lines and tokens after it.
;;
;; Strings are the bulk of a transcript: they are scanned 32 bytes at a time, stopping only at a quote, a
;; backslash or a control byte (i8x16.bitmask, i32.ctz). Everything else is a byte-at-a-time state machine.
(module
  (memory (export "memory") 1)

  ;; Set by $string and $key: whether the string held a backslash escape; $key also leaves its hash.
  (global $escaped (mut i32) (i32.const 0))
  (global $hash (mut i32) (i32.const 0))

  ;; The first byte at or after $p that is not JSON whitespace (space, tab, LF, CR), or $end.
  (func $ws (param $p i32) (param $end i32) (result i32)
    (local $c i32)
    (block $out
      (loop $next
        (br_if $out (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $c (i32.load8_u (local.get $p)))
        (br_if $out (i32.eqz (i32.or (i32.or (i32.eq (local.get $c) (i32.const 0x20)) (i32.eq (local.get $c) (i32.const 0x09)))
                                     (i32.or (i32.eq (local.get $c) (i32.const 0x0a)) (i32.eq (local.get $c) (i32.const 0x0d))))))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $next)))
    (local.get $p))

  (func $isHex (param $c i32) (result i32)
    (i32.or (i32.le_u (i32.sub (local.get $c) (i32.const 0x30)) (i32.const 9))
            (i32.le_u (i32.sub (i32.or (local.get $c) (i32.const 0x20)) (i32.const 0x61)) (i32.const 5))))

  ;; After a backslash at $p: the position after its escape, or -1 when it is none JSON allows.
  (func $escape (param $p i32) (param $end i32) (result i32)
    (local $e i32)
    (if (i32.ge_u (i32.add (local.get $p) (i32.const 1)) (local.get $end)) (then (return (i32.const -1))))
    (local.set $e (i32.load8_u offset=1 (local.get $p)))
    (if (i32.eq (local.get $e) (i32.const 0x75)) ;; u: four hex digits
      (then
        (if (i32.gt_u (i32.add (local.get $p) (i32.const 6)) (local.get $end)) (then (return (i32.const -1))))
        (if (i32.and (i32.and (call $isHex (i32.load8_u offset=2 (local.get $p))) (call $isHex (i32.load8_u offset=3 (local.get $p))))
                     (i32.and (call $isHex (i32.load8_u offset=4 (local.get $p))) (call $isHex (i32.load8_u offset=5 (local.get $p)))))
          (then (return (i32.add (local.get $p) (i32.const 6)))))
        (return (i32.const -1))))
    ;; " \ / b f n r t
    (if (i32.or
          (i32.or (i32.or (i32.eq (local.get $e) (i32.const 0x22)) (i32.eq (local.get $e) (i32.const 0x5c)))
                  (i32.or (i32.eq (local.get $e) (i32.const 0x2f)) (i32.eq (local.get $e) (i32.const 0x62))))
          (i32.or (i32.or (i32.eq (local.get $e) (i32.const 0x66)) (i32.eq (local.get $e) (i32.const 0x6e)))
                  (i32.or (i32.eq (local.get $e) (i32.const 0x72)) (i32.eq (local.get $e) (i32.const 0x74)))))
      (then (return (i32.add (local.get $p) (i32.const 2)))))
    (i32.const -1))

  ;; A string's text from $p (just past its opening quote): the position of its closing quote, or -1. 32
  ;; bytes at a time: the bits of a quote, a backslash or a control byte in them are taken in turn, an
  ;; escape's bytes cleared from the mask, and the next 32 loaded only once none is left.
  (func $string (param $p i32) (param $end i32) (result i32)
    (local $mask i32) (local $c i32) (local $q i32) (local $r i32) (local $v v128) (local $w v128)
    (global.set $escaped (i32.const 0))
    (loop $block
      (if (i32.le_u (i32.add (local.get $p) (i32.const 32)) (local.get $end))
        (then
          (local.set $v (v128.load (local.get $p)))
          (local.set $w (v128.load offset=16 (local.get $p)))
          (local.set $mask (i32.or
            (i8x16.bitmask (v128.or
              (v128.or (i8x16.eq (local.get $v) (v128.const i8x16 34 34 34 34 34 34 34 34 34 34 34 34 34 34 34 34))
                       (i8x16.eq (local.get $v) (v128.const i8x16 92 92 92 92 92 92 92 92 92 92 92 92 92 92 92 92)))
              (i8x16.lt_u (local.get $v) (v128.const i8x16 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32))))
            (i32.shl (i8x16.bitmask (v128.or
              (v128.or (i8x16.eq (local.get $w) (v128.const i8x16 34 34 34 34 34 34 34 34 34 34 34 34 34 34 34 34))
                       (i8x16.eq (local.get $w) (v128.const i8x16 92 92 92 92 92 92 92 92 92 92 92 92 92 92 92 92)))
              (i8x16.lt_u (local.get $w) (v128.const i8x16 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32))))
              (i32.const 16))))
          (loop $bits
            (if (i32.eqz (local.get $mask))
              (then
                (local.set $p (i32.add (local.get $p) (i32.const 32)))
                (br $block)))
            (local.set $q (i32.add (local.get $p) (i32.ctz (local.get $mask))))
            (local.set $c (i32.load8_u (local.get $q)))
            (if (i32.eq (local.get $c) (i32.const 0x22)) (then (return (local.get $q))))
            (if (i32.lt_u (local.get $c) (i32.const 0x20)) (then (return (i32.const -1))))
            (global.set $escaped (i32.const 1))
            (local.set $r (call $escape (local.get $q) (local.get $end)))
            (if (i32.lt_s (local.get $r) (i32.const 0)) (then (return (i32.const -1))))
            (if (i32.ge_u (local.get $r) (i32.add (local.get $p) (i32.const 32)))
              (then
                (local.set $p (local.get $r))
                (br $block)))
            ;; The escape's bytes are no events: only bits from $r on are left.
            (local.set $mask (i32.and (local.get $mask) (i32.shl (i32.const -1) (i32.sub (local.get $r) (local.get $p)))))
            (br $bits))))
      ;; The last bytes, one at a time.
      (if (i32.ge_u (local.get $p) (local.get $end)) (then (return (i32.const -1))))
      (local.set $c (i32.load8_u (local.get $p)))
      (if (i32.eq (local.get $c) (i32.const 0x22)) (then (return (local.get $p))))
      (if (i32.lt_u (local.get $c) (i32.const 0x20)) (then (return (i32.const -1))))
      (if (i32.eq (local.get $c) (i32.const 0x5c))
        (then
          (global.set $escaped (i32.const 1))
          (local.set $p (call $escape (local.get $p) (local.get $end)))
          (if (i32.lt_s (local.get $p) (i32.const 0)) (then (return (i32.const -1))))
          (br $block)))
      (local.set $p (i32.add (local.get $p) (i32.const 1)))
      (br $block))
    (unreachable))

  ;; A key's text from $p: as $string, a byte at a time (keys are short), its FNV-1a hash in $hash.
  (func $key (param $p i32) (param $end i32) (result i32)
    (local $c i32) (local $h i32) (local $q i32)
    (global.set $escaped (i32.const 0))
    (local.set $h (i32.const -2128831035))
    (loop $next
      (if (i32.ge_u (local.get $p) (local.get $end)) (then (return (i32.const -1))))
      (local.set $c (i32.load8_u (local.get $p)))
      (if (i32.eq (local.get $c) (i32.const 0x22))
        (then
          (global.set $hash (local.get $h))
          (return (local.get $p))))
      (if (i32.lt_u (local.get $c) (i32.const 0x20)) (then (return (i32.const -1))))
      (if (i32.eq (local.get $c) (i32.const 0x5c))
        (then
          (global.set $escaped (i32.const 1))
          (local.set $q (call $escape (local.get $p) (local.get $end)))
          (if (i32.lt_s (local.get $q) (i32.const 0)) (then (return (i32.const -1))))
          ;; The escape's raw bytes are hashed too.
          (loop $raw
            (local.set $h (i32.mul (i32.xor (local.get $h) (i32.load8_u (local.get $p))) (i32.const 16777619)))
            (local.set $p (i32.add (local.get $p) (i32.const 1)))
            (br_if $raw (i32.lt_u (local.get $p) (local.get $q))))
          (br $next)))
      (local.set $h (i32.mul (i32.xor (local.get $h) (local.get $c)) (i32.const 16777619)))
      (local.set $p (i32.add (local.get $p) (i32.const 1)))
      (br $next))
    (unreachable))

  (func $isDigit (param $p i32) (param $end i32) (result i32)
    (if (result i32) (i32.lt_u (local.get $p) (local.get $end))
      (then (i32.le_u (i32.sub (i32.load8_u (local.get $p)) (i32.const 0x30)) (i32.const 9)))
      (else (i32.const 0))))

  (func $digits (param $p i32) (param $end i32) (result i32)
    (block $out
      (loop $next
        (br_if $out (i32.eqz (call $isDigit (local.get $p) (local.get $end))))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $next)))
    (local.get $p))

  ;; A number from $p: the position after it, or -1 (JSON's grammar: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?).
  (func $number (param $p i32) (param $end i32) (result i32)
    (local $c i32)
    (if (i32.eq (i32.load8_u (local.get $p)) (i32.const 0x2d)) (then (local.set $p (i32.add (local.get $p) (i32.const 1)))))
    (if (i32.eqz (call $isDigit (local.get $p) (local.get $end))) (then (return (i32.const -1))))
    (if (i32.eq (i32.load8_u (local.get $p)) (i32.const 0x30))
      (then (local.set $p (i32.add (local.get $p) (i32.const 1))))
      (else (local.set $p (call $digits (local.get $p) (local.get $end)))))
    (if (i32.lt_u (local.get $p) (local.get $end))
      (then
        (if (i32.eq (i32.load8_u (local.get $p)) (i32.const 0x2e))
          (then
            (local.set $p (i32.add (local.get $p) (i32.const 1)))
            (if (i32.eqz (call $isDigit (local.get $p) (local.get $end))) (then (return (i32.const -1))))
            (local.set $p (call $digits (local.get $p) (local.get $end)))))))
    (if (i32.lt_u (local.get $p) (local.get $end))
      (then
        (local.set $c (i32.or (i32.load8_u (local.get $p)) (i32.const 0x20)))
        (if (i32.eq (local.get $c) (i32.const 0x65))
          (then
            (local.set $p (i32.add (local.get $p) (i32.const 1)))
            (if (i32.lt_u (local.get $p) (local.get $end))
              (then
                (local.set $c (i32.load8_u (local.get $p)))
                (if (i32.or (i32.eq (local.get $c) (i32.const 0x2b)) (i32.eq (local.get $c) (i32.const 0x2d)))
                  (then (local.set $p (i32.add (local.get $p) (i32.const 1)))))))
            (if (i32.eqz (call $isDigit (local.get $p) (local.get $end))) (then (return (i32.const -1))))
            (local.set $p (call $digits (local.get $p) (local.get $end)))))))
    (local.get $p))

  ;; Whether the 4 bytes at $p are `word` (little-endian), all before $end.
  (func $word4 (param $p i32) (param $end i32) (param $word i32) (result i32)
    (if (result i32) (i32.le_u (i32.add (local.get $p) (i32.const 4)) (local.get $end))
      (then (i32.eq (i32.load align=1 (local.get $p)) (local.get $word)))
      (else (i32.const 0))))

  ;; Writes token $n at $out (when $n < $cap; else the caller has returned -3 already).
  (func $put (param $out i32) (param $n i32) (param $head i32) (param $start i32) (param $end i32) (param $last i32)
    (local $at i32)
    (local.set $at (i32.add (local.get $out) (i32.shl (local.get $n) (i32.const 4))))
    (i32.store (local.get $at) (local.get $head))
    (i32.store offset=4 (local.get $at) (local.get $start))
    (i32.store offset=8 (local.get $at) (local.get $end))
    (i32.store offset=12 (local.get $at) (local.get $last)))

  (func (export "tokenize") (param $start i32) (param $end i32) (param $out i32) (param $cap i32) (param $maxDepth i32) (result i32)
    (local $p i32) (local $q i32) (local $c i32) (local $n i32) (local $depth i32) (local $state i32) (local $kind i32)
    (local $tok i32) (local $at i32)
    ;; States: 0 the top-level object's `{`; 1 a key or `}` (after `{`); 2 a key (after `,` in an object);
    ;; 3 `:`; 4 a value (after `:` or `,` in an array); 5 a value or `]` (after `[`); 6 `,` or the
    ;; container's end (after a value); 7 nothing but whitespace (after the top-level object).
    (local.set $p (local.get $start))
    (loop $next
      (local.set $p (call $ws (local.get $p) (local.get $end)))
      (if (i32.ge_u (local.get $p) (local.get $end))
        (then (return (select (local.get $n) (i32.const -1) (i32.eq (local.get $state) (i32.const 7))))))
      (local.set $c (i32.load8_u (local.get $p)))
      (block $dispatch
        ;; 7: anything after the top-level object
        (if (i32.eq (local.get $state) (i32.const 7)) (then (return (i32.const -1))))
        ;; 3: the colon after a key
        (if (i32.eq (local.get $state) (i32.const 3))
          (then
            (if (i32.ne (local.get $c) (i32.const 0x3a)) (then (return (i32.const -1))))
            (local.set $p (i32.add (local.get $p) (i32.const 1)))
            (local.set $state (i32.const 4))
            (br $dispatch)))
        ;; 6: after a value
        (if (i32.eq (local.get $state) (i32.const 6))
          (then
            (local.set $kind (i32.load8_u (local.get $depth)))
            (if (i32.eq (local.get $c) (i32.const 0x2c))
              (then
                (local.set $p (i32.add (local.get $p) (i32.const 1)))
                (local.set $state (select (i32.const 2) (i32.const 4) (i32.eq (local.get $kind) (i32.const 1))))
                (br $dispatch)))
            (if (i32.eqz (i32.or
                  (i32.and (i32.eq (local.get $c) (i32.const 0x7d)) (i32.eq (local.get $kind) (i32.const 1)))
                  (i32.and (i32.eq (local.get $c) (i32.const 0x5d)) (i32.eq (local.get $kind) (i32.const 2)))))
              (then (return (i32.const -1))))
            (local.set $state (i32.const 8)))) ;; close, below
        ;; 1 and 5: an empty container closes
        (if (i32.or
              (i32.and (i32.eq (local.get $state) (i32.const 1)) (i32.eq (local.get $c) (i32.const 0x7d)))
              (i32.and (i32.eq (local.get $state) (i32.const 5)) (i32.eq (local.get $c) (i32.const 0x5d))))
          (then (local.set $state (i32.const 8))))
        ;; 8 (internal): the container at $depth closes at $p
        (if (i32.eq (local.get $state) (i32.const 8))
          (then
            (local.set $tok (i32.load offset=512 (i32.shl (local.get $depth) (i32.const 2))))
            (if (i32.ge_s (local.get $tok) (i32.const 0))
              (then
                (local.set $at (i32.add (local.get $out) (i32.shl (local.get $tok) (i32.const 4))))
                (i32.store offset=8 (local.get $at) (i32.sub (i32.add (local.get $p) (i32.const 1)) (local.get $start)))
                (i32.store offset=12 (local.get $at) (local.get $n))))
            (local.set $depth (i32.sub (local.get $depth) (i32.const 1)))
            (local.set $p (i32.add (local.get $p) (i32.const 1)))
            (local.set $state (select (i32.const 7) (i32.const 6) (i32.eqz (local.get $depth))))
            (br $dispatch)))
        ;; 1 and 2: a key
        (if (i32.or (i32.eq (local.get $state) (i32.const 1)) (i32.eq (local.get $state) (i32.const 2)))
          (then
            (if (i32.ne (local.get $c) (i32.const 0x22)) (then (return (i32.const -1))))
            (local.set $q (call $key (i32.add (local.get $p) (i32.const 1)) (local.get $end)))
            (if (i32.lt_s (local.get $q) (i32.const 0)) (then (return (i32.const -1))))
            (if (i32.le_u (local.get $depth) (local.get $maxDepth))
              (then
                (if (i32.ge_u (local.get $n) (local.get $cap)) (then (return (i32.const -3))))
                (call $put (local.get $out) (local.get $n)
                  (i32.or (i32.or (i32.const 8) (i32.shl (global.get $escaped) (i32.const 4))) (i32.shl (local.get $depth) (i32.const 8)))
                  (i32.sub (local.get $p) (local.get $start)) (i32.sub (i32.add (local.get $q) (i32.const 1)) (local.get $start)) (global.get $hash))
                (local.set $n (i32.add (local.get $n) (i32.const 1)))))
            (local.set $p (i32.add (local.get $q) (i32.const 1)))
            (local.set $state (i32.const 3))
            (br $dispatch)))
        ;; 0: the top-level object must open here
        (if (i32.and (i32.eqz (local.get $state)) (i32.ne (local.get $c) (i32.const 0x7b))) (then (return (i32.const -1))))
        ;; 0, 4 and 5: a value at $depth
        (if (i32.or (i32.eq (local.get $c) (i32.const 0x7b)) (i32.eq (local.get $c) (i32.const 0x5b)))
          (then
            (if (i32.ge_u (local.get $depth) (i32.const 128)) (then (return (i32.const -2))))
            (local.set $kind (select (i32.const 1) (i32.const 2) (i32.eq (local.get $c) (i32.const 0x7b))))
            (local.set $tok (i32.const -1))
            (if (i32.le_u (local.get $depth) (local.get $maxDepth))
              (then
                (if (i32.ge_u (local.get $n) (local.get $cap)) (then (return (i32.const -3))))
                (call $put (local.get $out) (local.get $n) (i32.or (local.get $kind) (i32.shl (local.get $depth) (i32.const 8)))
                  (i32.sub (local.get $p) (local.get $start)) (i32.const 0) (i32.const 0))
                (local.set $tok (local.get $n))
                (local.set $n (i32.add (local.get $n) (i32.const 1)))))
            (local.set $depth (i32.add (local.get $depth) (i32.const 1)))
            (i32.store8 (local.get $depth) (local.get $kind))
            (i32.store offset=512 (i32.shl (local.get $depth) (i32.const 2)) (local.get $tok))
            (local.set $p (i32.add (local.get $p) (i32.const 1)))
            (local.set $state (select (i32.const 1) (i32.const 5) (i32.eq (local.get $kind) (i32.const 1))))
            (br $dispatch)))
        ;; A scalar: its end in $q, its kind in $kind, its flags in $tok.
        (local.set $tok (i32.const 0))
        (block $scalar
          (if (i32.eq (local.get $c) (i32.const 0x22))
            (then
              (local.set $q (call $string (i32.add (local.get $p) (i32.const 1)) (local.get $end)))
              (if (i32.lt_s (local.get $q) (i32.const 0)) (then (return (i32.const -1))))
              (local.set $q (i32.add (local.get $q) (i32.const 1)))
              (local.set $kind (i32.const 3))
              (local.set $tok (i32.shl (global.get $escaped) (i32.const 4)))
              (br $scalar)))
          (if (i32.or (i32.eq (local.get $c) (i32.const 0x2d)) (i32.le_u (i32.sub (local.get $c) (i32.const 0x30)) (i32.const 9)))
            (then
              (local.set $q (call $number (local.get $p) (local.get $end)))
              (if (i32.lt_s (local.get $q) (i32.const 0)) (then (return (i32.const -1))))
              (local.set $kind (i32.const 4))
              (br $scalar)))
          (if (call $word4 (local.get $p) (local.get $end) (i32.const 0x65757274)) ;; true
            (then
              (local.set $q (i32.add (local.get $p) (i32.const 4)))
              (local.set $kind (i32.const 5))
              (br $scalar)))
          (if (call $word4 (local.get $p) (local.get $end) (i32.const 0x6c6c756e)) ;; null
            (then
              (local.set $q (i32.add (local.get $p) (i32.const 4)))
              (local.set $kind (i32.const 7))
              (br $scalar)))
          (if (i32.and (call $word4 (local.get $p) (local.get $end) (i32.const 0x736c6166)) ;; fals
                       (i32.lt_u (i32.add (local.get $p) (i32.const 4)) (local.get $end)))
            (then
              (if (i32.eq (i32.load8_u offset=4 (local.get $p)) (i32.const 0x65))
                (then
                  (local.set $q (i32.add (local.get $p) (i32.const 5)))
                  (local.set $kind (i32.const 6))
                  (br $scalar)))))
          (return (i32.const -1)))
        (if (i32.le_u (local.get $depth) (local.get $maxDepth))
          (then
            (if (i32.ge_u (local.get $n) (local.get $cap)) (then (return (i32.const -3))))
            (call $put (local.get $out) (local.get $n)
              (i32.or (i32.or (local.get $kind) (local.get $tok)) (i32.shl (local.get $depth) (i32.const 8)))
              (i32.sub (local.get $p) (local.get $start)) (i32.sub (local.get $q) (local.get $start)) (i32.add (local.get $n) (i32.const 1)))
            (local.set $n (i32.add (local.get $n) (i32.const 1)))))
        (local.set $p (local.get $q))
        (local.set $state (i32.const 6)))
      (br $next))
    (unreachable))
)
