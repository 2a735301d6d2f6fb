// `cqlmodel diagram` (docs/cqlmodel.md, "diagram"): the Chebotko physical (or logical) diagram
// of a schema model. Each table, view and user type is a box: its name, the access pattern from
// the table's comment, then one row per column with its CQL type and its Chebotko marker — K
// (partition key), C↑ / C↓ (clustering column, ascending / descending), S (static), ++
// (counter), IDX (secondary index).
//
// Layout (`LayOut`), deterministic and free of overlaps by construction:
//   1. Keyspaces in schema order, each under a label on a shelf of its own.
//   2. Within a keyspace, tables and views in schema order, then user types.
//   3. Boxes fill shelves left to right; a box that would cross `kMaxShelfWidth` starts a new
//      shelf below the tallest box of the current one (a box wider than that has a shelf to
//      itself). Consecutive boxes are `kGap` apart on both axes, so no two boxes overlap.
//   4. Sizes come from the text: every glyph is `kCharWidth` wide (the SVG asks for a monospace
//      font), so the same schema always gives the same picture.
//
// Thread-safety: pure functions over plain data.

#pragma once

#include <string>
#include <vector>

#include "model/schema_model.h"

namespace model {

inline constexpr double kCharWidth = 7.2;  // a 12 px monospace glyph (0.6 em)
inline constexpr double kLineHeight = 18;
inline constexpr double kPadding = 8;
inline constexpr double kGap = 24;
inline constexpr double kMaxShelfWidth = 1200;

struct DiagramRow {
  std::string name;
  std::string type;
  std::string marker;  // "K", "C↑", "C↓", "S", "++", "IDX" or ""
};

struct DiagramBox {
  enum class Kind { kTable, kView, kType };
  Kind kind = Kind::kTable;
  std::string keyspace;
  std::string title;     // the object's name
  std::string subtitle;  // the table's comment, "view of <base>", or "user type"
  std::string base;      // views: the base table's name
  std::vector<DiagramRow> rows;
  double x = 0, y = 0, width = 0, height = 0;
  double name_width = 0, type_width = 0;  // the row columns' widths
};

struct DiagramLabel {
  std::string text;
  double x = 0, y = 0;  // the text's baseline
};

// A workflow arrow (the seeds' lines entering tables or leading from one to another): the
// application's step that read box `from` leads to the query of box `to`, labelled with that
// query ("Q2"). `from` is -1 for an entry point: the arrow enters `to` from its left.
struct DiagramArrow {
  int from = -1;
  int to = 0;
  std::string label;
};

struct DiagramLayout {
  std::vector<DiagramBox> boxes;
  std::vector<DiagramLabel> labels;
  std::vector<DiagramArrow> arrows;  // drawn under the boxes; see WorkflowArrows (derive.h)
  double width = 0, height = 0;
};

// The gap between boxes when the layout has workflow arrows: room for an entry arrow and its
// label left of a box.
inline constexpr double kArrowGap = 64;

// Physical: columns with their CQL types, and user types as boxes. Logical: the seeds' logical
// model, columns and markers only (no types, no user-type boxes).
enum class DiagramForm { kPhysical, kLogical };

// The boxes of `schema` (of `keyspace` only when not empty), sized and placed `gap` apart
// (`kArrowGap` for a diagram with workflow arrows).
DiagramLayout LayOut(const SchemaModel& schema, const std::string& keyspace,
                     DiagramForm form = DiagramForm::kPhysical, double gap = kGap);

// The index in `layout.boxes` of the table or view `keyspace.name`, or -1.
int FindBox(const DiagramLayout& layout, const std::string& keyspace, const std::string& name);

// The layout as a standalone SVG document. Arrows run straight between the boxes' borders, from
// centre to centre, with the label at the middle.
std::string RenderSvg(const DiagramLayout& layout);

// The same boxes as a Graphviz DOT graph (HTML-like labels; Graphviz places them), with a dashed
// edge from each view to its base table, and the workflow arrows as labelled edges (an entry point
// from a point node).
std::string RenderDot(const DiagramLayout& layout);

}  // namespace model
