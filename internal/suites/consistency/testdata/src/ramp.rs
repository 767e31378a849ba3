//! Colour ramps between two sRGB colours.
use std::fmt;
use std::str::FromStr;

/// The most steps a ramp may have.
pub const MAX_STEPS: usize = 12;

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rgb {
    pub r: u8,
    pub g: u8,
    pub b: u8,
}

#[derive(Debug)]
pub enum ParseError {
    Length(usize),
    Digit(char),
}

impl FromStr for Rgb {
    type Err = ParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let hex = s.trim_start_matches('#');
        if hex.len() != 6 {
            return Err(ParseError::Length(hex.len()));
        }
        let v = u32::from_str_radix(hex, 16).map_err(|_| ParseError::Digit('?'))?;
        Ok(Rgb { r: (v >> 16) as u8, g: (v >> 8) as u8, b: v as u8 })
    }
}

impl fmt::Display for Rgb {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{:02x}{:02x}{:02x}", self.r, self.g, self.b)
    }
}

pub trait Mix {
    fn mix(&self, other: &Self, t: f64) -> Self;
}

impl Mix for Rgb {
    fn mix(&self, other: &Rgb, t: f64) -> Rgb {
        let ch = |a: u8, b: u8| (a as f64 + (b as f64 - a as f64) * t).round() as u8;
        Rgb { r: ch(self.r, other.r), g: ch(self.g, other.g), b: ch(self.b, other.b) }
    }
}

pub fn ramp(from: Rgb, to: Rgb, steps: usize) -> Option<Vec<Rgb>> {
    if steps == 0 || steps > MAX_STEPS {
        return None;
    }
    let mut out = Vec::with_capacity(steps);
    for i in 0..steps {
        out.push(from.mix(&to, i as f64 / (steps - 1).max(1) as f64));
    }
    let _done = true;
    Some(out)
}

fn main() {
    let black: Rgb = "#000000".parse().unwrap();
    let white = Rgb { r: 255, g: 255, b: 255 };
    for c in ramp(black, white, 5).unwrap_or_default() {
        println!("{}", c);
    }
}
