#include "model/diagram.h"

#include <fmt/format.h>

#include <algorithm>

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
  void StartKeyspace(const std::string& name, DiagramLayout* layout) {
    NewShelf();
    layout->labels.push_back(DiagramLabel{"keyspace " + name, kGap, y_ + kLineHeight});
    y_ += kLineHeight + kPadding;
  }

  void Place(DiagramBox* box, DiagramLayout* layout) {
    if (x_ > kGap && x_ + box->width > kMaxShelfWidth) NewShelf();
    box->x = x_;
    box->y = y_;
    x_ += box->width + kGap;
    shelf_height_ = std::max(shelf_height_, box->height);
    layout->width = std::max(layout->width, box->x + box->width + kGap);
    layout->height = std::max(layout->height, box->y + box->height + kGap);
  }

 private:
  void NewShelf() {
    if (shelf_height_ > 0) y_ += shelf_height_ + kGap;
    x_ = kGap;
    shelf_height_ = 0;
  }

  double x_ = kGap;
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

}  // namespace

DiagramLayout LayOut(const SchemaModel& schema, const std::string& keyspace, DiagramForm form) {
  DiagramLayout layout;
  ShelfPacker packer;
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

std::string RenderSvg(const DiagramLayout& layout) {
  std::string out = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0:.0f}\" height=\"{1:.0f}\" "
      "viewBox=\"0 0 {0:.0f} {1:.0f}\" font-family=\"DejaVu Sans Mono, monospace\" "
      "font-size=\"12\">\n"
      "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n",
      std::ceil(layout.width), std::ceil(layout.height));
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
  return out + "}\n";
}

}  // namespace model
