#include "storage/row_fragment.h"

#include <algorithm>
#include <limits>
#include <string>

namespace storage {
namespace {

constexpr uint8_t kHasLiveness = 0x01;
constexpr uint8_t kHasDeletion = 0x02;
constexpr uint8_t kFragmentFlagMask = kHasLiveness | kHasDeletion;

constexpr uint8_t kCellKindMask = 0x03;
constexpr uint8_t kCellHasPath = 0x04;
constexpr uint8_t kCellFlagMask = kCellKindMask | kCellHasPath;

constexpr int64_t kMaxTtl = std::numeric_limits<int32_t>::max();

common::Status Corrupt(std::string_view what) {
  return common::Status::Corruption("Corrupt row fragment: " + std::string(what));
}

// Turns a ByteReader failure (ProtocolError) into Corruption.
template <typename T>
common::Result<T> OrCorrupt(common::Result<T> r, std::string_view what) {
  if (!r.ok()) return Corrupt(std::string(what) + " (" + r.status().message() + ")");
  return r;
}

common::Result<uint32_t> ReadColumnId(common::ByteReader* in) {
  ASSIGN_OR_RETURN(uint64_t id, OrCorrupt(in->ReadMinimalUnsignedVInt(), "column id"));
  if (id > std::numeric_limits<uint32_t>::max()) return Corrupt("column id out of range");
  return static_cast<uint32_t>(id);
}

common::Result<std::string_view> ReadLengthPrefixed(common::ByteReader* in, std::string_view what) {
  ASSIGN_OR_RETURN(uint64_t length, OrCorrupt(in->ReadMinimalUnsignedVInt(), what));
  if (length > in->remaining()) return Corrupt(std::string(what) + " longer than the input");
  return OrCorrupt(in->ReadRaw(static_cast<size_t>(length)), what);
}

common::Result<DeletionTime> ReadDeletionTime(common::ByteReader* in) {
  DeletionTime d;
  ASSIGN_OR_RETURN(d.timestamp, OrCorrupt(in->ReadMinimalVInt(), "deletion timestamp"));
  ASSIGN_OR_RETURN(d.local_deletion_time, OrCorrupt(in->ReadMinimalVInt(), "local deletion time"));
  return d;
}

void PutLengthPrefixed(std::string_view bytes, common::ByteWriter* out) {
  out->PutUnsignedVInt(bytes.size());
  out->PutRaw(bytes);
}

common::Status ValidateCell(const Cell& cell) {
  switch (cell.kind) {
    case CellKind::kLive:
      if (cell.ttl != 0 || cell.local_deletion_time != 0) {
        return common::Status::Invalid("live cell with ttl or deletion time");
      }
      break;
    case CellKind::kExpiring:
      if (cell.ttl <= 0 || cell.ttl > kMaxTtl) {
        return common::Status::Invalid("expiring cell with ttl out of range");
      }
      break;
    case CellKind::kTombstone:
      if (cell.ttl != 0 || !cell.value.empty()) {
        return common::Status::Invalid("tombstone with ttl or value");
      }
      break;
    default:
      return common::Status::Invalid("unknown cell kind");
  }
  return common::Status::Ok();
}

// The fast path of decoding: reads without Result or error text. Any failure sends the
// caller to the checked path (CheckedDecode), which says what is wrong.
class FastReader {
 public:
  explicit FastReader(std::string_view in) : p_(in.data()), end_(in.data() + in.size()) {}
  size_t remaining() const { return static_cast<size_t>(end_ - p_); }
  bool U8(uint8_t* v) {
    if (p_ == end_) return false;
    *v = static_cast<uint8_t>(*p_++);
    return true;
  }
  // An [unsigned vint] in its shortest encoding only, as ReadMinimalUnsignedVInt.
  bool Unsigned(uint64_t* v) {
    if (p_ == end_) return false;
    const auto first = static_cast<uint8_t>(*p_);
    if (first < 0x80) {
      *v = first;
      ++p_;
      return true;
    }
    const int extra =
        first == 0xFF ? 8
                      : __builtin_clz(static_cast<uint32_t>(static_cast<uint8_t>(~first)) << 24);
    if (remaining() < static_cast<size_t>(extra) + 1) return false;
    uint64_t value = extra == 8 ? 0 : (first & (0xFF >> extra));
    ++p_;
    for (int i = 0; i < extra; ++i) value = (value << 8) | static_cast<uint8_t>(*p_++);
    // Shortest: the value does not fit in fewer extra bytes (7 more bits per byte).
    if ((value >> (7 * extra)) == 0) return false;
    *v = value;
    return true;
  }
  bool Signed(int64_t* v) {
    uint64_t u = 0;
    if (!Unsigned(&u)) return false;
    *v = static_cast<int64_t>((u >> 1) ^ (~(u & 1) + 1));
    return true;
  }
  bool ColumnId(uint32_t* v) {
    uint64_t id = 0;
    if (!Unsigned(&id) || id > std::numeric_limits<uint32_t>::max()) return false;
    *v = static_cast<uint32_t>(id);
    return true;
  }
  bool Deletion(DeletionTime* d) {
    return Signed(&d->timestamp) && Signed(&d->local_deletion_time);
  }
  bool LengthPrefixed(std::string_view* v) {
    uint64_t length = 0;
    if (!Unsigned(&length) || length > remaining()) return false;
    *v = std::string_view(p_, static_cast<size_t>(length));
    p_ += length;
    return true;
  }

 private:
  const char* p_;
  const char* end_;
};

// A cell as the fast path reads it: its path and value view the input.
struct CellView {
  uint32_t column_id = 0;
  std::optional<std::string_view> path;
  int64_t timestamp = 0;
  CellKind kind = CellKind::kLive;
  int64_t ttl = 0;
  int64_t local_deletion_time = 0;
  std::string_view value;
};

// CompareCellPosition(a, b) < 0.
bool Before(const CellView& a, const CellView& b) {
  if (a.column_id != b.column_id) return a.column_id < b.column_id;
  if (a.path.has_value() != b.path.has_value()) return !a.path.has_value();
  return a.path.has_value() && *a.path < *b.path;
}

// Reads one cell with every check CheckedDecode makes of it.
bool ReadCell(FastReader& in, CellView* cell) {
  uint8_t flags = 0;
  if (!in.ColumnId(&cell->column_id) || !in.U8(&flags) || (flags & ~kCellFlagMask) != 0) {
    return false;
  }
  const uint8_t kind = flags & kCellKindMask;
  if (kind > static_cast<uint8_t>(CellKind::kTombstone)) return false;
  cell->kind = static_cast<CellKind>(kind);
  if (flags & kCellHasPath) {
    std::string_view path;
    if (!in.LengthPrefixed(&path)) return false;
    cell->path = path;
  }
  if (!in.Signed(&cell->timestamp)) return false;
  if (cell->kind == CellKind::kExpiring) {
    uint64_t ttl = 0;
    if (!in.Unsigned(&ttl) || ttl == 0 || ttl > static_cast<uint64_t>(kMaxTtl)) return false;
    cell->ttl = static_cast<int64_t>(ttl);
  }
  if (cell->kind != CellKind::kLive && !in.Signed(&cell->local_deletion_time)) return false;
  return cell->kind == CellKind::kTombstone || in.LengthPrefixed(&cell->value);
}

// Walks the encoding `bytes` making every check CheckedDecode makes; false when one fails.
// Hands what it reads to `sink`: Liveness(LivenessInfo), Deletion(DeletionTime),
// CollectionDeletion(column id, DeletionTime), Cells(count), then AddCell(CellView) per cell.
template <typename Sink>
bool WalkEncoded(std::string_view bytes, Sink& sink) {
  FastReader in(bytes);
  uint8_t version = 0;
  uint8_t flags = 0;
  if (!in.U8(&version) || version != kRowFragmentVersion || !in.U8(&flags) ||
      (flags & ~kFragmentFlagMask) != 0) {
    return false;
  }
  if (flags & kHasLiveness) {
    LivenessInfo l;
    uint64_t ttl = 0;
    if (!in.Signed(&l.timestamp) || !in.Unsigned(&ttl) || ttl > static_cast<uint64_t>(kMaxTtl)) {
      return false;
    }
    l.ttl = static_cast<int64_t>(ttl);
    if (l.ttl > 0 && !in.Signed(&l.local_expiration_time)) return false;
    sink.Liveness(l);
  }
  if (flags & kHasDeletion) {
    DeletionTime d;
    if (!in.Deletion(&d)) return false;
    sink.Deletion(d);
  }
  uint64_t count = 0;
  if (!in.Unsigned(&count) || count > in.remaining() / 3) return false;
  int64_t previous_column = -1;
  for (uint64_t i = 0; i < count; ++i) {
    uint32_t column_id = 0;
    DeletionTime d;
    if (!in.ColumnId(&column_id) || column_id <= previous_column || !in.Deletion(&d)) {
      return false;
    }
    previous_column = column_id;
    sink.CollectionDeletion(column_id, d);
  }
  if (!in.Unsigned(&count) || count > in.remaining() / 3) return false;
  sink.Cells(count);
  CellView previous;
  for (uint64_t i = 0; i < count; ++i) {
    CellView cell;
    if (!ReadCell(in, &cell) || (i > 0 && !Before(previous, cell))) return false;
    sink.AddCell(cell);
    previous = cell;
  }
  return in.remaining() == 0;
}

// Builds the fragment the walk reads.
struct DecodeSink {
  RowFragment* fragment;
  void Liveness(const LivenessInfo& l) { fragment->liveness = l; }
  void Deletion(const DeletionTime& d) { fragment->deletion = d; }
  void CollectionDeletion(uint32_t column_id, const DeletionTime& d) {
    fragment->collection_deletions.emplace_hint(fragment->collection_deletions.end(), column_id, d);
  }
  void Cells(uint64_t count) { fragment->cells.reserve(static_cast<size_t>(count)); }
  void AddCell(const CellView& view) {
    Cell& cell = fragment->cells.emplace_back();
    cell.column_id = view.column_id;
    if (view.path) cell.path = common::Bytes(*view.path);
    cell.timestamp = view.timestamp;
    cell.kind = view.kind;
    cell.ttl = view.ttl;
    cell.local_deletion_time = view.local_deletion_time;
    cell.value.assign(view.value);
  }
};

// Notes whether the walk met a row deletion or a collection deletion; keeps nothing.
struct DeletionSink {
  bool any = false;
  void Liveness(const LivenessInfo&) {}
  void Deletion(const DeletionTime&) { any = true; }
  void CollectionDeletion(uint32_t, const DeletionTime&) { any = true; }
  void Cells(uint64_t) {}
  void AddCell(const CellView&) {}
};

}  // namespace

std::strong_ordering CompareCellPosition(const Cell& a, const Cell& b) {
  if (a.column_id != b.column_id) return a.column_id <=> b.column_id;
  if (a.path.has_value() != b.path.has_value()) return a.path.has_value() <=> b.path.has_value();
  if (!a.path.has_value()) return std::strong_ordering::equal;
  int c = std::string_view(*a.path).compare(*b.path);
  return c <=> 0;
}

void SortCells(RowFragment* fragment) {
  auto less = [](const Cell& a, const Cell& b) { return CompareCellPosition(a, b) < 0; };
  // Most fragments arrive sorted (a statement's assignments in column order); checking first
  // spares stable_sort's buffer.
  if (std::is_sorted(fragment->cells.begin(), fragment->cells.end(), less)) return;
  std::stable_sort(fragment->cells.begin(), fragment->cells.end(), less);
}

common::Status ValidateRowFragment(const RowFragment& fragment) {
  if (fragment.liveness) {
    const LivenessInfo& l = *fragment.liveness;
    if (l.ttl < 0 || l.ttl > kMaxTtl || (l.ttl == 0 && l.local_expiration_time != 0)) {
      return common::Status::Invalid("liveness marker with bad ttl");
    }
  }
  for (size_t i = 0; i < fragment.cells.size(); ++i) {
    RETURN_IF_ERROR(ValidateCell(fragment.cells[i]));
    if (i > 0 && CompareCellPosition(fragment.cells[i - 1], fragment.cells[i]) >= 0) {
      return common::Status::Invalid("cells not sorted and unique");
    }
  }
  return common::Status::Ok();
}

namespace {

// At least the bytes EncodeRowFragment appends for `fragment`: a varint takes at most 10 bytes;
// the fixed part is two bytes and at most 7 varints, a collection deletion 3, and a cell a flag
// byte and at most 6 besides its path and value.
size_t EncodedSizeBound(const RowFragment& fragment) {
  constexpr size_t kVarint = 10;
  size_t bound = 2 + 7 * kVarint + fragment.collection_deletions.size() * 3 * kVarint;
  for (const Cell& cell : fragment.cells) {
    bound += 1 + 6 * kVarint + cell.value.size() + (cell.path ? cell.path->size() : 0);
  }
  return bound;
}

}  // namespace

void EncodeRowFragment(const RowFragment& fragment, common::Bytes* out) {
  // Sized once: grown by appends, a row of a few cells was copied four times on the way.
  out->reserve(out->size() + EncodedSizeBound(fragment));
  common::ByteWriter w(std::move(*out));
  w.PutU8(kRowFragmentVersion);
  uint8_t flags = 0;
  if (fragment.liveness) flags |= kHasLiveness;
  if (fragment.deletion) flags |= kHasDeletion;
  w.PutU8(flags);
  if (fragment.liveness) {
    w.PutVInt(fragment.liveness->timestamp);
    w.PutUnsignedVInt(static_cast<uint64_t>(fragment.liveness->ttl));
    if (fragment.liveness->ttl > 0) w.PutVInt(fragment.liveness->local_expiration_time);
  }
  if (fragment.deletion) {
    w.PutVInt(fragment.deletion->timestamp);
    w.PutVInt(fragment.deletion->local_deletion_time);
  }
  w.PutUnsignedVInt(fragment.collection_deletions.size());
  for (const auto& [column_id, deletion] : fragment.collection_deletions) {
    w.PutUnsignedVInt(column_id);
    w.PutVInt(deletion.timestamp);
    w.PutVInt(deletion.local_deletion_time);
  }
  w.PutUnsignedVInt(fragment.cells.size());
  for (const Cell& cell : fragment.cells) {
    w.PutUnsignedVInt(cell.column_id);
    uint8_t cell_flags = static_cast<uint8_t>(cell.kind) & kCellKindMask;
    if (cell.path) cell_flags |= kCellHasPath;
    w.PutU8(cell_flags);
    if (cell.path) PutLengthPrefixed(*cell.path, &w);
    w.PutVInt(cell.timestamp);
    switch (cell.kind) {
      case CellKind::kExpiring:
        w.PutUnsignedVInt(static_cast<uint64_t>(cell.ttl));
        w.PutVInt(cell.local_deletion_time);
        break;
      case CellKind::kTombstone:
        w.PutVInt(cell.local_deletion_time);
        break;
      case CellKind::kLive:
        break;
    }
    if (!cell.is_tombstone()) PutLengthPrefixed(cell.value, &w);
  }
  *out = w.Release();
}

common::Bytes EncodeRowFragment(const RowFragment& fragment) {
  common::Bytes out;
  EncodeRowFragment(fragment, &out);
  return out;
}

namespace {

// DecodeRowFragment with a Status saying what is wrong; the fast path's fallback.
common::Result<RowFragment> CheckedDecode(std::string_view bytes) {
  common::ByteReader in(bytes);
  RowFragment fragment;
  ASSIGN_OR_RETURN(uint8_t version, OrCorrupt(in.ReadU8(), "version"));
  if (version != kRowFragmentVersion) {
    return Corrupt("unknown version " + std::to_string(version));
  }
  ASSIGN_OR_RETURN(uint8_t flags, OrCorrupt(in.ReadU8(), "flags"));
  if ((flags & ~kFragmentFlagMask) != 0) return Corrupt("unknown flag bits");
  if (flags & kHasLiveness) {
    LivenessInfo l;
    ASSIGN_OR_RETURN(l.timestamp, OrCorrupt(in.ReadMinimalVInt(), "liveness timestamp"));
    ASSIGN_OR_RETURN(uint64_t ttl, OrCorrupt(in.ReadMinimalUnsignedVInt(), "liveness ttl"));
    if (ttl > static_cast<uint64_t>(kMaxTtl)) return Corrupt("liveness ttl out of range");
    l.ttl = static_cast<int64_t>(ttl);
    if (l.ttl > 0) {
      ASSIGN_OR_RETURN(l.local_expiration_time,
                       OrCorrupt(in.ReadMinimalVInt(), "liveness expiration time"));
    }
    fragment.liveness = l;
  }
  if (flags & kHasDeletion) {
    ASSIGN_OR_RETURN(fragment.deletion, ReadDeletionTime(&in));
  }
  ASSIGN_OR_RETURN(uint64_t collection_count,
                   OrCorrupt(in.ReadMinimalUnsignedVInt(), "collection deletion count"));
  // Each entry takes at least 3 bytes, which bounds the count by the input before any loop.
  if (collection_count > in.remaining() / 3) return Corrupt("collection deletion count");
  std::optional<uint32_t> previous_column;
  for (uint64_t i = 0; i < collection_count; ++i) {
    ASSIGN_OR_RETURN(uint32_t column_id, ReadColumnId(&in));
    if (previous_column && column_id <= *previous_column) {
      return Corrupt("collection deletions not sorted");
    }
    previous_column = column_id;
    ASSIGN_OR_RETURN(DeletionTime d, ReadDeletionTime(&in));
    fragment.collection_deletions.emplace_hint(fragment.collection_deletions.end(), column_id, d);
  }
  ASSIGN_OR_RETURN(uint64_t cell_count, OrCorrupt(in.ReadMinimalUnsignedVInt(), "cell count"));
  // Each cell takes at least 3 bytes (column id, flags, timestamp).
  if (cell_count > in.remaining() / 3) return Corrupt("cell count");
  fragment.cells.reserve(static_cast<size_t>(cell_count));
  for (uint64_t i = 0; i < cell_count; ++i) {
    Cell cell;
    ASSIGN_OR_RETURN(cell.column_id, ReadColumnId(&in));
    ASSIGN_OR_RETURN(uint8_t cell_flags, OrCorrupt(in.ReadU8(), "cell flags"));
    if ((cell_flags & ~kCellFlagMask) != 0) return Corrupt("unknown cell flag bits");
    uint8_t kind = cell_flags & kCellKindMask;
    if (kind > static_cast<uint8_t>(CellKind::kTombstone)) return Corrupt("unknown cell kind");
    cell.kind = static_cast<CellKind>(kind);
    if (cell_flags & kCellHasPath) {
      ASSIGN_OR_RETURN(std::string_view path, ReadLengthPrefixed(&in, "cell path"));
      cell.path = common::Bytes(path);
    }
    ASSIGN_OR_RETURN(cell.timestamp, OrCorrupt(in.ReadMinimalVInt(), "cell timestamp"));
    if (cell.kind == CellKind::kExpiring) {
      ASSIGN_OR_RETURN(uint64_t ttl, OrCorrupt(in.ReadMinimalUnsignedVInt(), "cell ttl"));
      if (ttl == 0 || ttl > static_cast<uint64_t>(kMaxTtl)) {
        return Corrupt("cell ttl out of range");
      }
      cell.ttl = static_cast<int64_t>(ttl);
    }
    if (cell.kind != CellKind::kLive) {
      ASSIGN_OR_RETURN(cell.local_deletion_time,
                       OrCorrupt(in.ReadMinimalVInt(), "cell deletion time"));
    }
    if (!cell.is_tombstone()) {
      ASSIGN_OR_RETURN(std::string_view value, ReadLengthPrefixed(&in, "cell value"));
      cell.value = common::Bytes(value);
    }
    if (!fragment.cells.empty() && CompareCellPosition(fragment.cells.back(), cell) >= 0) {
      return Corrupt("cells not sorted and unique");
    }
    fragment.cells.push_back(std::move(cell));
  }
  if (!in.empty()) return Corrupt("trailing bytes");
  return fragment;
}

}  // namespace

common::Result<RowFragment> DecodeRowFragment(std::string_view bytes) {
  RowFragment fragment;
  DecodeSink sink{&fragment};
  if (WalkEncoded(bytes, sink)) return fragment;
  return CheckedDecode(bytes);
}

bool IsEncodedWithoutDeletions(std::string_view bytes) {
  DeletionSink sink;
  return WalkEncoded(bytes, sink) && !sink.any;
}

}  // namespace storage
