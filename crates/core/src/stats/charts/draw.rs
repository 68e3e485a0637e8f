//! Drawing primitives on an SVG canvas: card, title, text, rectangles and lines, in pixels.

use super::style::{BG, BORDER, FG, FONT, MUTED, PAD, TEXT_SIZE, TITLE_SIZE};
use plotters::backend::SVGBackend;
use plotters::coord::Shift;
use plotters::drawing::{DrawingArea, DrawingAreaErrorKind, IntoDrawingArea};
use plotters::element::{PathElement, Rectangle, Text};
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{Color, FontDesc, FontFamily, FontStyle, RGBColor, ShapeStyle, TextStyle};

pub(super) type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;
pub(super) type DrawResult = Result<(), DrawingAreaErrorKind<std::io::Error>>;

/// Pixel coordinate for plotters, saturating rather than wrapping on absurd sizes.
pub(super) fn px(v: i64) -> i32 {
    i32::try_from(v).unwrap_or(if v < 0 { i32::MIN } else { i32::MAX })
}

pub(super) fn font(size: f64) -> FontDesc<'static> {
    FontDesc::new(FontFamily::Name(FONT), size, FontStyle::Normal)
}

/// Runs `draw` on a fresh SVG canvas and returns the document.
pub(super) fn render(width: i64, height: i64, draw: impl FnOnce(&Area) -> DrawResult) -> String {
    let size = (
        u32::try_from(width.max(1)).unwrap_or(u32::MAX),
        u32::try_from(height.max(1)).unwrap_or(u32::MAX),
    );
    let mut svg = String::new();
    let outcome = {
        let area = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        draw(&area).and_then(|()| area.present())
    };
    match outcome {
        Ok(()) => svg,
        // A string backend has no I/O to fail, but a half-written document must never escape.
        Err(_) => format!(
            "<svg width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" xmlns=\"http://www.w3.org/2000/svg\"/>\n",
            w = size.0,
            h = size.1
        ),
    }
}

/// Opaque background so the chart keeps its contrast on dark themes.
pub(super) fn card(area: &Area, width: i64, height: i64) -> DrawResult {
    rect(area, [(0, 0), (width, height)], BG.filled())?;
    rect(
        area,
        [(0, 0), (width - 1, height - 1)],
        BORDER.stroke_width(1),
    )
}

pub(super) fn title_text(area: &Area, title: &str) -> DrawResult {
    let style = TextStyle::from(FontDesc::new(
        FontFamily::Name(FONT),
        TITLE_SIZE,
        FontStyle::Bold,
    ))
    .color(&FG)
    .pos(Pos::new(HPos::Left, VPos::Center));
    area.draw(&Text::new(title, (px(PAD), px(PAD + 9)), style))
}

pub(super) fn no_data(area: &Area) -> DrawResult {
    text(
        area,
        "No data",
        PAD,
        PAD + 30 + 13,
        TEXT_SIZE,
        MUTED,
        HPos::Left,
    )
}

pub(super) fn text(
    area: &Area,
    s: &str,
    x: i64,
    y: i64,
    size: f64,
    ink: RGBColor,
    h: HPos,
) -> DrawResult {
    let style = TextStyle::from(font(size))
        .color(&ink)
        .pos(Pos::new(h, VPos::Center));
    area.draw(&Text::new(s, (px(x), px(y)), style))
}

pub(super) fn rect(area: &Area, corners: [(i64, i64); 2], style: ShapeStyle) -> DrawResult {
    let [(x0, y0), (x1, y1)] = corners;
    area.draw(&Rectangle::new([(px(x0), px(y0)), (px(x1), px(y1))], style))
}

pub(super) fn line(area: &Area, from: (i64, i64), to: (i64, i64), ink: RGBColor) -> DrawResult {
    let points = vec![(px(from.0), px(from.1)), (px(to.0), px(to.1))];
    area.draw(&PathElement::new(points, ink.stroke_width(1)))
}
