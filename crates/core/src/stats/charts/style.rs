//! The sizes, fonts and colours every chart shares.

use plotters::style::RGBColor;

/// Default card width; heat maps with many columns grow beyond it rather than squash cells.
pub(super) const WIDTH: i64 = 680;
pub(super) const PAD: i64 = 16;
/// Labels longer than this many characters are cut and end in an ellipsis.
pub(super) const LABEL_MAX: usize = 34;
pub(super) const COL_LABEL_MAX: usize = 24;
pub(super) const TITLE_MAX: usize = 64;
pub(super) const AXIS_MAX: usize = 40;

pub(super) const FONT: &str = "Helvetica, Arial, sans-serif";

// Plotters' SVG backend writes `font-size` as the requested size divided by 1.24; these values
// divide to exact integers (16, 14, 12, 11 px) so the attribute is not a long float.
pub(super) const TITLE_SIZE: f64 = 19.84;
pub(super) const TEXT_SIZE: f64 = 14.88;
pub(super) const SMALL_SIZE: f64 = 13.64;

pub(super) const BG: RGBColor = RGBColor(0xFF, 0xFF, 0xFF);
pub(super) const BORDER: RGBColor = RGBColor(0xD0, 0xD7, 0xDE);
pub(super) const FG: RGBColor = RGBColor(0x1F, 0x23, 0x28);
pub(super) const MUTED: RGBColor = RGBColor(0x59, 0x63, 0x6E);
pub(super) const FAINT: RGBColor = RGBColor(0x8C, 0x95, 0x9F);
pub(super) const BAR_FILL: RGBColor = RGBColor(0x09, 0x69, 0xDA);
pub(super) const ZERO_FILL: RGBColor = RGBColor(0xF6, 0xF8, 0xFA);
pub(super) const ZERO_EDGE: RGBColor = RGBColor(0xD8, 0xDE, 0xE4);
pub(super) const HEAT_LOW: RGBColor = RGBColor(0xDD, 0xF4, 0xFF);
pub(super) const HEAT_HIGH: RGBColor = RGBColor(0x0A, 0x30, 0x69);
pub(super) const WHITE_TEXT: RGBColor = RGBColor(0xFF, 0xFF, 0xFF);
/// Neutral fill of heat-map cells kept out of the colour scale.
pub(super) const APART_FILL: RGBColor = RGBColor(0xEA, 0xEE, 0xF2);
