#include "model/diagram.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace model {
namespace {

// The number of glyphs of UTF-8 `text` (code points; the markers' arrows are one glyph).
size_t Glyphs(const std::string& text) {
  return static_cast<size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

double TextWidth(const std::string& text) { return static_cast<double>(Glyphs(text)) * kCharWidth; }

std::string Marker(const Table& table, const Column& column, const SchemaModel& schema) {
  switch (column.kind) {
    case ColumnKind::kPartitionKey:
      return "K";
    case ColumnKind::kClustering:
      return column.descending ? "C↓" : "C↑";
    case ColumnKind::kStatic:
      return "S";
    case ColumnKind::kRegular:
      break;
  }
  if (column.type.IsCounter()) return "++";
  for (const Index* index : schema.IndexesOf(table)) {
    if (index->column == column.name) return "IDX";
  }
  return "";
}

DiagramBox TableBox(const SchemaModel& schema, const Table& table) {
  DiagramBox box;
  box.kind = table.is_view ? DiagramBox::Kind::kView : DiagramBox::Kind::kTable;
  box.keyspace = table.keyspace;
  box.title = table.name;
  box.base = table.base_table;
  box.subtitle = table.is_view ? "view of " + table.base_table : table.comment;
  if (table.is_view && !table.comment.empty()) box.subtitle += ": " + table.comment;
  for (const Column& column : table.columns) {
    box.rows.push_back(DiagramRow{column.name, column.type.ToCql(), Marker(table, column, schema)});
  }
  return box;
}

DiagramBox TypeBox(const UserType& type) {
  DiagramBox box;
  box.kind = DiagramBox::Kind::kType;
  box.keyspace = type.keyspace;
  box.title = type.name;
  box.subtitle = "user type";
  for (size_t i = 0; i < type.field_names.size(); ++i) {
    box.rows.push_back(DiagramRow{type.field_names[i], type.field_types[i].ToCql(), ""});
  }
  return box;
}

void Size(DiagramBox* box) {
  for (const DiagramRow& row : box->rows) {
    box->name_width = std::max(box->name_width, TextWidth(row.name));
    box->type_width = std::max(box->type_width, TextWidth(row.type));
  }
  double rows_width = box->name_width + kCharWidth * 2 + box->type_width + kCharWidth * 5;
  double text_width = std::max({TextWidth(box->title), TextWidth(box->subtitle), rows_width});
  box->width = std::ceil(text_width + 2 * kPadding);
  double header = kLineHeight * (box->subtitle.empty() ? 1 : 2) + kPadding;
  box->height = header + kLineHeight * static_cast<double>(box->rows.size()) + kPadding;
}

// Places boxes on shelves (see the header's numbered steps).
class ShelfPacker {
 public:
  explicit ShelfPacker(double gap) : gap_(gap), x_(gap) {}

  void StartKeyspace(const std::string& name, DiagramLayout* layout) {
    NewShelf();
    layout->labels.push_back(DiagramLabel{"keyspace " + name, kGap, y_ + kLineHeight});
    y_ += kLineHeight + kPadding;
  }

  void Place(DiagramBox* box, DiagramLayout* layout) {
    if (x_ > gap_ && x_ + box->width > kMaxShelfWidth) NewShelf();
    box->x = x_;
    box->y = y_;
    x_ += box->width + gap_;
    shelf_height_ = std::max(shelf_height_, box->height);
    layout->width = std::max(layout->width, box->x + box->width + gap_);
    layout->height = std::max(layout->height, box->y + box->height + gap_);
  }

 private:
  void NewShelf() {
    if (shelf_height_ > 0) y_ += shelf_height_ + gap_;
    x_ = gap_;
    shelf_height_ = 0;
  }

  double gap_;
  double x_;
  double y_ = 0;
  double shelf_height_ = 0;
};

std::string Escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

const char* HeaderFill(DiagramBox::Kind kind) {
  switch (kind) {
    case DiagramBox::Kind::kTable:
      return "#dde7f3";
    case DiagramBox::Kind::kView:
      return "#e6f0dc";
    case DiagramBox::Kind::kType:
      return "#f3ead8";
  }
  return "#ffffff";
}

void RenderBox(const DiagramBox& box, std::string* out) {
  double header = kLineHeight * (box.subtitle.empty() ? 1 : 2) + kPadding;
  double left = box.x + kPadding;
  *out += fmt::format("<g id=\"{}.{}\">\n", Escape(box.keyspace), Escape(box.title));
  *out += fmt::format(
      "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"#ffffff\" "
      "stroke=\"#333333\"{}/>\n",
      box.x, box.y, box.width, box.height,
      box.kind == DiagramBox::Kind::kView ? " stroke-dasharray=\"6 3\"" : "");
  *out += fmt::format(
      "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"{}\" "
      "stroke=\"#333333\"/>\n",
      box.x, box.y, box.width, header, HeaderFill(box.kind));
  *out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" font-weight=\"bold\">{}</text>\n", left,
                      box.y + kLineHeight, Escape(box.title));
  if (!box.subtitle.empty()) {
    *out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" font-style=\"italic\">{}</text>\n", left,
                        box.y + 2 * kLineHeight, Escape(box.subtitle));
  }
  double type_x = left + box.name_width + 2 * kCharWidth;
  double marker_x = type_x + box.type_width + 2 * kCharWidth;
  for (size_t i = 0; i < box.rows.size(); ++i) {
    const DiagramRow& row = box.rows[i];
    double y = box.y + header + kLineHeight * static_cast<double>(i + 1) - 4;
    *out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\">{}</text>", left, y, Escape(row.name));
    if (!row.type.empty()) {
      *out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" fill=\"#555555\">{}</text>", type_x, y,
                          Escape(row.type));
    }
    if (!row.marker.empty()) {
      *out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" font-weight=\"bold\">{}</text>",
                          marker_x, y, Escape(row.marker));
    }
    *out += "\n";
  }
  *out += "</g>\n";
}

std::string DotId(const DiagramBox& box) { return "\"" + box.keyspace + "." + box.title + "\""; }

struct Point {
  double x = 0, y = 0;
};

Point Centre(const DiagramBox& box) { return {box.x + box.width / 2, box.y + box.height / 2}; }

// Where the segment from `box`'s centre towards `target` crosses the box's border.
Point Border(const DiagramBox& box, Point target) {
  Point centre = Centre(box);
  double dx = target.x - centre.x, dy = target.y - centre.y;
  double scale = 1;
  if (dx != 0) scale = std::min(scale, box.width / 2 / std::abs(dx));
  if (dy != 0) scale = std::min(scale, box.height / 2 / std::abs(dy));
  return {centre.x + dx * scale, centre.y + dy * scale};
}

// Whether the segment a-b passes through a box of `layout` other than `skip_a` and `skip_b`.
bool Crosses(const DiagramLayout& layout, Point a, Point b, size_t skip_a, size_t skip_b) {
  constexpr int kSteps = 64;
  for (size_t i = 0; i < layout.boxes.size(); ++i) {
    if (i == skip_a || i == skip_b) continue;
    const DiagramBox& box = layout.boxes[i];
    for (int step = 1; step < kSteps; ++step) {
      double t = static_cast<double>(step) / kSteps;
      double x = a.x + (b.x - a.x) * t, y = a.y + (b.y - a.y) * t;
      if (x > box.x && x < box.x + box.width && y > box.y && y < box.y + box.height) return true;
    }
  }
  return false;
}

// The bottom of the shelf of `box`: the lowest edge of the boxes placed at its height.
double ShelfBottom(const DiagramLayout& layout, const DiagramBox& box) {
  double bottom = box.y + box.height;
  for (const DiagramBox& other : layout.boxes) {
    if (other.y == box.y) bottom = std::max(bottom, other.y + other.height);
  }
  return bottom;
}

// The points of an arrow: a straight line between the boxes' borders, or, when that would pass
// through another box, down from `from` into the channel under its shelf, along it, and into
// `to` (from below when on the same shelf, from above when lower).
std::vector<Point> ArrowPath(const DiagramLayout& layout, const DiagramArrow& arrow) {
  const DiagramBox& to = layout.boxes[static_cast<size_t>(arrow.to)];
  if (arrow.from < 0) {  // an entry point: from the left, level with the title
    Point end{to.x, to.y + kLineHeight / 2 + kPadding / 2};
    return {{end.x - kArrowGap + kPadding, end.y}, end};
  }
  const DiagramBox& from = layout.boxes[static_cast<size_t>(arrow.from)];
  Point start = Border(from, Centre(to)), end = Border(to, Centre(from));
  if (!Crosses(layout, start, end, static_cast<size_t>(arrow.from),
               static_cast<size_t>(arrow.to)) ||
      to.y + to.height < from.y) {
    return {start, end};
  }
  double channel = ShelfBottom(layout, from) + kArrowGap / 3;
  double from_x = from.x + from.width / 2, to_x = to.x + to.width * 3 / 4;
  double to_y = to.y > channel ? to.y : to.y + to.height;
  return {{from_x, from.y + from.height}, {from_x, channel}, {to_x, channel}, {to_x, to_y}};
}

void RenderArrow(const DiagramLayout& layout, const DiagramArrow& arrow, std::string* out) {
  std::vector<Point> path = ArrowPath(layout, arrow);
  std::string points;
  for (const Point& point : path) {
    points += fmt::format("{}{:.1f},{:.1f}", points.empty() ? "" : " ", point.x, point.y);
  }
  // The label: above the entry arrow's start, or by the middle of the path's middle segment.
  size_t middle = (path.size() - 1) / 2;
  Point label = arrow.from < 0 ? Point{path[0].x, path[0].y - 4}
                               : Point{(path[middle].x + path[middle + 1].x) / 2 + 4,
                                       (path[middle].y + path[middle + 1].y) / 2 - 4};
  *out += fmt::format(
      "<polyline points=\"{}\" fill=\"none\" stroke=\"#3a6ea5\" stroke-width=\"1.5\" "
      "marker-end=\"url(#arrow)\"/>\n"
      "<text x=\"{:.1f}\" y=\"{:.1f}\" fill=\"#3a6ea5\" font-weight=\"bold\">{}</text>\n",
      points, label.x, label.y, Escape(arrow.label));
}

}  // namespace

DiagramLayout LayOut(const SchemaModel& schema, const std::string& keyspace, DiagramForm form,
                     double gap) {
  DiagramLayout layout;
  ShelfPacker packer(gap);
  for (const Keyspace& space : schema.keyspaces) {
    if (!keyspace.empty() && space.name != keyspace) continue;
    std::vector<DiagramBox> boxes;
    for (const Table& table : schema.tables) {
      if (table.keyspace == space.name) boxes.push_back(TableBox(schema, table));
    }
    for (const UserType& type : schema.types) {
      if (type.keyspace == space.name && form == DiagramForm::kPhysical) {
        boxes.push_back(TypeBox(type));
      }
    }
    if (form == DiagramForm::kLogical) {
      for (DiagramBox& box : boxes) {
        for (DiagramRow& row : box.rows) row.type.clear();
      }
    }
    if (boxes.empty()) continue;
    packer.StartKeyspace(space.name, &layout);
    for (DiagramBox& box : boxes) {
      Size(&box);
      packer.Place(&box, &layout);
      layout.boxes.push_back(std::move(box));
    }
  }
  return layout;
}

int FindBox(const DiagramLayout& layout, const std::string& keyspace, const std::string& name) {
  for (size_t i = 0; i < layout.boxes.size(); ++i) {
    const DiagramBox& box = layout.boxes[i];
    if (box.kind != DiagramBox::Kind::kType && box.keyspace == keyspace && box.title == name) {
      return static_cast<int>(i);
    }
  }
  return -1;
}

std::string RenderSvg(const DiagramLayout& layout) {
  std::string out = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0:.0f}\" height=\"{1:.0f}\" "
      "viewBox=\"0 0 {0:.0f} {1:.0f}\" font-family=\"DejaVu Sans Mono, monospace\" "
      "font-size=\"12\">\n"
      "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n",
      std::ceil(layout.width), std::ceil(layout.height));
  if (!layout.arrows.empty()) {
    out +=
        "<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" "
        "markerWidth=\"8\" markerHeight=\"8\" orient=\"auto\"><path d=\"M 0 0 L 10 5 L 0 10 z\" "
        "fill=\"#3a6ea5\"/></marker></defs>\n";
  }
  for (const DiagramArrow& arrow : layout.arrows) RenderArrow(layout, arrow, &out);
  for (const DiagramLabel& label : layout.labels) {
    out += fmt::format(
        "<text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"14\" font-weight=\"bold\">{}</text>\n",
        label.x, label.y, Escape(label.text));
  }
  for (const DiagramBox& box : layout.boxes) RenderBox(box, &out);
  return out + "</svg>\n";
}

std::string RenderDot(const DiagramLayout& layout) {
  std::string out =
      "digraph schema {\n  rankdir=LR;\n  node [shape=plaintext, fontname=\"DejaVu Sans Mono\"];\n";
  for (const DiagramBox& box : layout.boxes) {
    out += fmt::format(
        "  {} [label=<<table border=\"1\" cellborder=\"0\" cellspacing=\"0\">"
        "<tr><td colspan=\"3\" bgcolor=\"{}\"><b>{}</b></td></tr>",
        DotId(box), HeaderFill(box.kind), Escape(box.title));
    if (!box.subtitle.empty()) {
      out += fmt::format("<tr><td colspan=\"3\" bgcolor=\"{}\"><i>{}</i></td></tr>",
                         HeaderFill(box.kind), Escape(box.subtitle));
    }
    for (const DiagramRow& row : box.rows) {
      out += fmt::format("<tr><td align=\"left\">{}</td><td align=\"left\">{}</td><td>{}</td></tr>",
                         Escape(row.name), Escape(row.type), Escape(row.marker));
    }
    out += "</table>>];\n";
  }
  for (const DiagramBox& box : layout.boxes) {
    if (box.kind != DiagramBox::Kind::kView) continue;
    out += fmt::format("  {} -> \"{}.{}\" [style=dashed];\n", DotId(box), box.keyspace, box.base);
  }
  for (const DiagramArrow& arrow : layout.arrows) {
    const DiagramBox& to = layout.boxes[static_cast<size_t>(arrow.to)];
    std::string from;
    if (arrow.from < 0) {
      from = fmt::format("\"entry {}\"", arrow.label);
      out += fmt::format("  {} [shape=point];\n", from);
    } else {
      from = DotId(layout.boxes[static_cast<size_t>(arrow.from)]);
    }
    out += fmt::format("  {} -> {} [label=\"{}\"];\n", from, DotId(to), Escape(arrow.label));
  }
  return out + "}\n";
}

}  // namespace model
