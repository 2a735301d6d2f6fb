// The web UI (the repository's web/ folder) compiled into the binary, so `hotel serve` serves
// its UI from any working directory and an installed `hotel` needs no files beside it.
// `cmake/EmbedFiles.cmake` writes the table at build time (a generated web_assets.cc in the
// build tree, rebuilt when a file of web/ changes); `hotel serve --web DIR` serves DIR instead.
//
// Thread-safety: immutable data.

#pragma once

#include <optional>
#include <span>
#include <string_view>

namespace hotel {

struct WebAsset {
  std::string_view path;  // relative to web/, with a leading '/': "/index.html", "/static/ui.js"
  std::string_view content;
};

// Every file of web/, sorted by path.
std::span<const WebAsset> EmbeddedWebAssets();

// The content of the embedded file at `path` ("/index.html"), nullopt when there is none.
inline std::optional<std::string_view> FindEmbeddedWebAsset(std::string_view path) {
  for (const WebAsset& asset : EmbeddedWebAssets()) {
    if (asset.path == path) return asset.content;
  }
  return std::nullopt;
}

}  // namespace hotel
