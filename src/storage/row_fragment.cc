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

}  // namespace

std::strong_ordering CompareCellPosition(const Cell& a, const Cell& b) {
  if (a.column_id != b.column_id) return a.column_id <=> b.column_id;
  if (a.path.has_value() != b.path.has_value()) return a.path.has_value() <=> b.path.has_value();
  if (!a.path.has_value()) return std::strong_ordering::equal;
  int c = std::string_view(*a.path).compare(*b.path);
  return c <=> 0;
}

void SortCells(RowFragment* fragment) {
  std::stable_sort(fragment->cells.begin(), fragment->cells.end(),
                   [](const Cell& a, const Cell& b) { return CompareCellPosition(a, b) < 0; });
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

void EncodeRowFragment(const RowFragment& fragment, common::Bytes* out) {
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

common::Result<RowFragment> DecodeRowFragment(std::string_view bytes) {
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

}  // namespace storage
