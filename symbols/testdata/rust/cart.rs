//! Shopping carts.
use std::collections::{HashMap, hash_map::Entry as MapEntry};
use std::fmt;
use crate::item::*;
use super::Owner as CartOwner;
extern crate serde;

/// The most items a cart holds.
pub const MAX_ITEMS: usize = 100;
static mut COUNTER: u32 = 0;
pub(crate) static NAME: &str = "cart";

/// A cart of items.
#[derive(Debug, Clone)]
pub struct Cart<T> {
    pub items: Vec<T>,
    owner: Option<CartOwner>,
}

pub struct Point(pub i32, i32);

pub enum Color {
    Red,
    Green(u8),
    Blue { level: u8 },
}

union Bits { i: u32, f: f32 }

pub type Result<T> = std::result::Result<T, Error>;

/// Things that can be priced.
pub trait Priced {
    fn price(&self) -> u64;
    fn discounted(&self) -> u64 { self.price() }
}

impl<T: Clone> Cart<T> {
    /// Makes an empty cart.
    pub fn new() -> Self {
        Cart { items: Vec::new(), owner: None }
    }

    fn len(&self) -> usize { self.items.len() }
}

impl<T> fmt::Display for Cart<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cart")
    }
}

pub fn total(items: &[u64]) -> u64 {
    fn helper() {}
    items.iter().sum()
}

macro_rules! cart {
    () => { Cart::new() };
}

pub mod pricing {
    pub fn round(x: f64) -> f64 { x.round() }
}

mod tests;
