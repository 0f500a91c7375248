use std::fmt;

/// A point.
#[derive(Debug, Clone)]
pub struct Point {
    x: i32,
}

impl Point {
    pub fn new() -> Self {
        Point { x: 0 }
    }
}

impl fmt::Display for Point {
    // Formats.
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}", self.x)
    }
}

impl Point {
    fn new() -> Self { Point { x: 1 } }
}

mod inner {
    pub fn helper() {}
}
