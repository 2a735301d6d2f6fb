// CRC: the two checksums of protocol v5 segment framing (specs/protocol_v5_framing.md §5, §6).
//
// `Crc24` guards a segment header: Koopman's 24-bit polynomial 0x1974F0B, initial value 0x875060,
// no reflection, no final XOR, over the header bytes in wire order. `Crc32` guards a segment
// payload: the standard (zlib) CRC-32 seeded by first feeding the bytes FA 2D 55 CA.
// Used only by frame.cc; kept apart so the tests can check them against the documented vectors.
//
// Thread-safety: pure functions.

#pragma once

#include <cstdint>
#include <string_view>

namespace protocol {

// CRC24 of `bytes` (in practice the 3 or 5 header bytes). The result fits in 24 bits.
uint32_t Crc24(std::string_view bytes);

// CRC32 of `payload` as protocol v5 computes it: crc32(FA 2D 55 CA || payload).
uint32_t Crc32(std::string_view payload);

}  // namespace protocol
