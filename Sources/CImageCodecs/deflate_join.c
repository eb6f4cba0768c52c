// Finding a raw deflate stream's last block (RFC 1951), so that streams compressed apart can be
// joined: the last block's BFINAL bit cleared, an empty stored block to reach a byte boundary,
// then the next stream. Only block boundaries are wanted, so codes are decoded and their extra
// bits skipped; nothing is written out.
#include <string.h>

#include "deflate_join.h"

static inline uint64_t le64(uint64_t v) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  return __builtin_bswap64(v);
#else
  return v;
#endif
}

typedef struct {
  const uint8_t *data;
  size_t size, next;  // next: the byte the buffer is filled from
  uint64_t buffer;    // bits not yet consumed, the first in the lowest bit
  unsigned count;
} bit_reader;

static void refill(bit_reader *r) {
  if (r->next + 8 <= r->size) {
    // Eight bytes at once (little-endian), keeping the whole bytes that fit.
    uint64_t word;
    memcpy(&word, r->data + r->next, 8);
    word = le64(word);
    r->buffer |= word << r->count;
    r->next += (63 - r->count) >> 3;
    r->count |= 56;
    return;
  }
  while (r->count <= 56) {
    uint64_t byte = r->next < r->size ? r->data[r->next] : 0;  // zeros past the end: caught below
    r->buffer |= byte << r->count;
    r->count += 8;
    r->next++;
  }
}

static size_t consumed(const bit_reader *r) { return r->next * 8 - r->count; }

static uint32_t take(bit_reader *r, unsigned n) {
  if (n == 0) return 0;
  if (r->count < n) refill(r);
  uint32_t v = (uint32_t)(r->buffer & ((UINT64_C(1) << n) - 1));
  r->buffer >>= n;
  r->count -= n;
  return v;
}

enum { PRIMARY_BITS = 12 };

// A canonical Huffman code: a table on the next PRIMARY_BITS bits for the short codes (entry:
// symbol << 4 | length; 0 for codes longer than that) and, for the rest, the counts per length
// and the symbols in code order, decoded a bit at a time.
typedef struct {
  uint16_t fast[1 << PRIMARY_BITS];
  uint16_t count[16];
  uint16_t symbols[288];
} huffman;

static unsigned reversed(unsigned code, unsigned length) {
  unsigned r = 0;
  for (unsigned i = 0; i < length; ++i, code >>= 1) r = (r << 1) | (code & 1);
  return r;
}

// Builds `h` from the code lengths of `n` symbols; 1 for an over-subscribed set of lengths.
static int build(huffman *h, const uint8_t *lengths, unsigned n) {
  memset(h->count, 0, sizeof h->count);
  for (unsigned s = 0; s < n; ++s) h->count[lengths[s]]++;
  h->count[0] = 0;
  int left = 1;
  for (unsigned len = 1; len < 16; ++len) {
    left = left * 2 - h->count[len];
    if (left < 0) return 1;
  }
  uint16_t offset[16], next_code[16];
  offset[1] = 0;
  for (unsigned len = 1; len < 15; ++len) offset[len + 1] = offset[len] + h->count[len];
  unsigned code = 0;
  for (unsigned len = 1; len < 16; ++len) {
    code = (code + (len > 1 ? h->count[len - 1] : 0)) << 1;
    next_code[len] = (uint16_t)code;
  }
  memset(h->fast, 0, sizeof h->fast);
  for (unsigned s = 0; s < n; ++s) {
    unsigned len = lengths[s];
    if (!len) continue;
    h->symbols[offset[len]++] = (uint16_t)s;
    unsigned c = next_code[len]++;
    if (len <= PRIMARY_BITS)
      for (unsigned r = reversed(c, len); r < (1u << PRIMARY_BITS); r += 1u << len)
        h->fast[r] = (uint16_t)(s << 4 | len);
  }
  return 0;
}

// The next symbol, or -1 for bits that are no code.
static int decode(bit_reader *r, const huffman *h) {
  if (r->count < 15) refill(r);
  uint16_t entry = h->fast[r->buffer & ((1u << PRIMARY_BITS) - 1)];
  if (entry) {
    unsigned len = entry & 15;
    r->buffer >>= len;
    r->count -= len;
    return entry >> 4;
  }
  // Longer than the table: canonical decoding a bit at a time (codes are sent first bit first).
  int code = 0, first = 0, index = 0;
  for (unsigned len = 1; len < 16; ++len) {
    code |= (int)take(r, 1);
    int count = h->count[len];
    if (code - count < first) return h->symbols[index + (code - first)];
    index += count;
    first = (first + count) << 1;
    code <<= 1;
  }
  return -1;
}

static const uint8_t length_extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                         2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
static const uint8_t distance_extra[30] = {0, 0, 0, 0, 1, 1, 2, 2,  3,  3,  4,  4,  5,  5,  6,
                                           6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};

// Skips a Huffman-coded block's symbols up to its end-of-block code, a bit at a time where
// needed (near the end of the data, and for codes longer than the table).
static int skip_codes_carefully(bit_reader *r, const huffman *literals, const huffman *distances) {
  for (;;) {
    int symbol = decode(r, literals);
    if (symbol < 0) return 1;
    if (symbol < 256) continue;
    if (symbol == 256) return 0;
    if (symbol - 257 >= 29) return 1;
    take(r, length_extra[symbol - 257]);
    int distance = decode(r, distances);
    if (distance < 0 || distance >= 30) return 1;
    take(r, distance_extra[distance]);
    if (consumed(r) > r->size * 8) return 1;
  }
}

// Skips a Huffman-coded block's symbols up to its end-of-block code. While eight bytes of data
// remain, the bits live in locals (no reloads through the reader) and are refilled once a
// symbol: at least 48 bits then, as many as a length code, its extra bits, a distance code and
// its extra bits take. Codes longer than the table, and the data's last bytes, go the careful way.
static int skip_codes(bit_reader *r, const huffman *literals, const huffman *distances) {
  const uint8_t *data = r->data;
  const size_t size = r->size;
  uint64_t buffer = r->buffer;
  unsigned count = r->count;
  size_t next = r->next;
  const uint64_t mask = (1u << PRIMARY_BITS) - 1;
  while (next + 8 <= size) {
    if (count < 48) {
      uint64_t word;
      memcpy(&word, data + next, 8);
      buffer |= le64(word) << count;
      next += (63 - count) >> 3;
      count |= 56;
    }
    uint16_t entry = literals->fast[buffer & mask];
    if (!entry) break;  // a long code
    unsigned symbol = entry >> 4, length = entry & 15;
    buffer >>= length, count -= length;
    if (symbol < 256) continue;
    if (symbol == 256) {
      r->buffer = buffer, r->count = count, r->next = next;
      return 0;
    }
    if (symbol - 257 >= 29) return 1;
    unsigned extra = length_extra[symbol - 257];
    buffer >>= extra, count -= extra;
    entry = distances->fast[buffer & mask];
    if (!entry) {
      // A long distance code: decoded the careful way, then on as before.
      r->buffer = buffer, r->count = count, r->next = next;
      int distance = decode(r, distances);
      if (distance < 0 || distance >= 30) return 1;
      take(r, distance_extra[distance]);
      buffer = r->buffer, count = r->count, next = r->next;
      continue;
    }
    if ((entry >> 4) >= 30) return 1;
    length = (entry & 15) + distance_extra[entry >> 4];
    buffer >>= length, count -= length;
  }
  r->buffer = buffer, r->count = count, r->next = next;
  return skip_codes_carefully(r, literals, distances);
}

// Reads a dynamic block's code lengths and builds its two codes.
static int dynamic_codes(bit_reader *r, huffman *literals, huffman *distances) {
  static const uint8_t order[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};
  unsigned nlit = take(r, 5) + 257, ndist = take(r, 5) + 1, ncode = take(r, 4) + 4;
  if (nlit > 286 || ndist > 30) return 1;
  uint8_t lengths[286 + 30] = {0}, code_lengths[19] = {0};
  for (unsigned i = 0; i < ncode; ++i) code_lengths[order[i]] = (uint8_t)take(r, 3);
  huffman lengths_code;
  if (build(&lengths_code, code_lengths, 19)) return 1;
  for (unsigned i = 0; i < nlit + ndist;) {
    int symbol = decode(r, &lengths_code);
    if (symbol < 0) return 1;
    if (symbol < 16) {
      lengths[i++] = (uint8_t)symbol;
      continue;
    }
    unsigned repeat, value = 0;
    if (symbol == 16) {
      if (i == 0) return 1;
      value = lengths[i - 1];
      repeat = 3 + take(r, 2);
    } else {
      repeat = symbol == 17 ? 3 + take(r, 3) : 11 + take(r, 7);
    }
    if (i + repeat > nlit + ndist) return 1;
    while (repeat--) lengths[i++] = (uint8_t)value;
  }
  if (lengths[256] == 0) return 1;  // no end-of-block code
  return build(literals, lengths, nlit) || build(distances, lengths + nlit, ndist);
}

int deflate_find_last_block(const uint8_t *data, size_t size, size_t *header_bit, size_t *end_bit) {
  bit_reader r = {data, size, 0, 0, 0};
  // The fixed codes (RFC 1951, 3.2.6), built for each call: a few microseconds, no shared state.
  huffman fixed_literals, fixed_distances, literals, distances;
  uint8_t lengths[288];
  for (int i = 0; i < 288; ++i) lengths[i] = i < 144 ? 8 : i < 256 ? 9 : i < 280 ? 7 : 8;
  build(&fixed_literals, lengths, 288);
  for (int i = 0; i < 30; ++i) lengths[i] = 5;
  build(&fixed_distances, lengths, 30);
  for (;;) {
    size_t start = consumed(&r);
    unsigned last = take(&r, 1), type = take(&r, 2);
    if (type == 0) {
      take(&r, (unsigned)((8 - consumed(&r) % 8) % 8));  // to the byte boundary
      unsigned length = take(&r, 16), complement = take(&r, 16);
      if ((length ^ 0xffffu) != complement) return 1;
      size_t resume = consumed(&r) / 8 + length;
      if (resume > size) return 1;
      r.next = resume, r.buffer = 0, r.count = 0;
    } else if (type == 1) {
      if (skip_codes(&r, &fixed_literals, &fixed_distances)) return 1;
    } else if (type == 2) {
      if (dynamic_codes(&r, &literals, &distances) || skip_codes(&r, &literals, &distances)) return 1;
    } else {
      return 1;
    }
    if (consumed(&r) > size * 8) return 1;
    if (last) {
      *header_bit = start;
      *end_bit = consumed(&r);
      return 0;
    }
  }
}

uint32_t adler32_join(uint32_t first, uint32_t second, size_t second_length) {
  const uint64_t modulus = 65521;
  uint64_t a1 = first & 0xffff, b1 = first >> 16, a2 = second & 0xffff, b2 = second >> 16;
  uint64_t n = second_length % modulus;
  uint64_t a = (a1 + a2 + modulus - 1) % modulus;
  uint64_t b = (b1 + b2 + n * ((a1 + modulus - 1) % modulus)) % modulus;
  return (uint32_t)(b << 16 | a);
}
