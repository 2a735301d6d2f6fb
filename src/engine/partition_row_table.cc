#include "engine/partition_row_table.h"

#include <cstring>
#include <new>
#include <type_traits>
#include <utility>

#include "common/bytes.h"

namespace engine {

namespace {

// A heap block's header and rounding, as row_cache.cc counts it.
constexpr size_t kAllocation = 16;
// A make_shared control block beside its object.
constexpr size_t kControlBlock = 16;

}  // namespace

std::shared_ptr<const CachedPartitionRow> CachedPartitionRow::Make(
    const PartitionName& partition, const storage::PartitionVersions::Snapshot& version,
    const std::optional<storage::DeletionTime>& deletion, const storage::RowFragment* row) {
  common::Bytes encoded;
  if (row != nullptr) storage::EncodeRowFragment(*row, &encoded);
  const size_t key_size = partition.table_id.size() + 1 + partition.prefix.size();
  const size_t total = sizeof(CachedPartitionRow) + key_size + encoded.size();
  // One block, aligned for the header, its control block beside it.
  std::shared_ptr<std::max_align_t[]> block = std::make_shared<std::max_align_t[]>(
      (total + sizeof(std::max_align_t) - 1) / sizeof(std::max_align_t));
  auto* entry = new (block.get()) CachedPartitionRow();
  entry->version = version;
  entry->deletion = deletion;
  entry->has_row = row != nullptr;
  entry->key_size = static_cast<uint32_t>(key_size);
  entry->row_size = static_cast<uint32_t>(encoded.size());
  char* data = reinterpret_cast<char*>(entry + 1);
  std::memcpy(data, partition.table_id.data(), partition.table_id.size());
  data[partition.table_id.size()] = '\0';
  std::memcpy(data + partition.table_id.size() + 1, partition.prefix.data(),
              partition.prefix.size());
  std::memcpy(data + key_size, encoded.data(), encoded.size());
  entry->bytes = entry->EstimateBytes();
  // The header is trivially destructible: freeing the block ends it.
  static_assert(std::is_trivially_destructible_v<CachedPartitionRow>);
  return std::shared_ptr<const CachedPartitionRow>(std::move(block), entry);
}

size_t CachedPartitionRow::EstimateBytes() const {
  const size_t block = sizeof(CachedPartitionRow) + key_size + row_size;
  const size_t rounded = (block + 15) / 16 * 16;
  return kControlBlock + rounded + kAllocation + 2 * PartitionRowTable::kSlotBytes;
}

size_t PartitionRowTable::Probe(uint64_t hash, const PartitionName& partition) const {
  const size_t mask = slots_.size() - 1;
  for (size_t i = Home(hash);; i = (i + 1) & mask) {
    const Slot& slot = slots_[i];
    if (slot.entry == nullptr || (slot.hash == hash && partition.Matches(slot.entry->key())))
      return i;
  }
}

std::shared_ptr<const CachedPartitionRow> PartitionRowTable::Find(uint64_t hash,
                                                                  const PartitionName& partition) {
  if (size_ == 0) return nullptr;
  Slot& slot = slots_[Probe(hash, partition)];
  if (slot.entry == nullptr) return nullptr;
  // Written only when clear: a hot entry's slot stays unwritten between passes of the hand.
  if (!slot.referenced) slot.referenced = true;
  return slot.entry;
}

bool PartitionRowTable::Contains(uint64_t hash, const PartitionName& partition) const {
  return size_ != 0 && slots_[Probe(hash, partition)].entry != nullptr;
}

std::shared_ptr<const CachedPartitionRow> PartitionRowTable::Put(
    uint64_t hash, std::shared_ptr<const CachedPartitionRow> entry) {
  if ((size_ + 1) * 8 > slots_.size() * 7) Grow();
  Slot& slot = slots_[Probe(hash, PartitionName::Of(entry->key()))];
  std::shared_ptr<const CachedPartitionRow> old = std::move(slot.entry);
  if (old != nullptr) {
    entry_bytes_ -= old->bytes;
  } else {
    ++size_;
  }
  entry_bytes_ += entry->bytes;
  slot.hash = hash;
  slot.referenced = false;
  slot.entry = std::move(entry);
  return old;
}

std::shared_ptr<const CachedPartitionRow> PartitionRowTable::Take(uint64_t hash,
                                                                  const PartitionName& partition) {
  if (size_ == 0) return nullptr;
  const size_t i = Probe(hash, partition);
  if (slots_[i].entry == nullptr) return nullptr;
  return RemoveAt(i);
}

std::shared_ptr<const CachedPartitionRow> PartitionRowTable::Evict() {
  const size_t mask = slots_.size() - 1;
  for (;; hand_ = (hand_ + 1) & mask) {
    Slot& slot = slots_[hand_];
    if (slot.entry == nullptr) continue;
    if (slot.referenced) {
      slot.referenced = false;
      continue;
    }
    return RemoveAt(hand_);
  }
}

std::shared_ptr<const CachedPartitionRow> PartitionRowTable::RemoveAt(size_t i) {
  const size_t mask = slots_.size() - 1;
  std::shared_ptr<const CachedPartitionRow> removed = std::move(slots_[i].entry);
  entry_bytes_ -= removed->bytes;
  --size_;
  // Backward shift: move each later slot of the run into the hole unless its home lies
  // cyclically in (hole, slot], where it would become unreachable from its home.
  size_t hole = i;
  for (size_t j = (i + 1) & mask; slots_[j].entry != nullptr; j = (j + 1) & mask) {
    const size_t home = Home(slots_[j].hash);
    const bool stays = hole <= j ? (hole < home && home <= j) : (hole < home || home <= j);
    if (stays) continue;
    slots_[hole] = std::move(slots_[j]);
    slots_[j].entry = nullptr;
    slots_[j].referenced = false;
    hole = j;
  }
  return removed;
}

void PartitionRowTable::Grow() {
  static_assert(sizeof(Slot) == kSlotBytes);
  std::vector<Slot> old =
      std::exchange(slots_, std::vector<Slot>(slots_.empty() ? kInitialSlots : slots_.size() * 2));
  const size_t mask = slots_.size() - 1;
  for (Slot& slot : old) {
    if (slot.entry == nullptr) continue;
    size_t i = Home(slot.hash);
    while (slots_[i].entry != nullptr) i = (i + 1) & mask;
    slots_[i] = std::move(slot);
  }
  hand_ &= mask;
}

}  // namespace engine
