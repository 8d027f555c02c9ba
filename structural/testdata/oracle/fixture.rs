use std::collections::HashMap;
use std::fmt;

pub struct Store {
    items: HashMap<String, i32>,
}

impl fmt::Display for Store {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Store({})", self.items.len())
    }
}

impl Store {
    pub fn new() -> Self {
        Store { items: HashMap::new() }
    }

    pub fn put(&mut self, k: &str, v: i32) -> Option<i32> {
        println!("put {} {}", k, v);
        let old = self.items.insert(k.to_string(), v);
        match old {
            Some(x) => Some(x),
            None => None,
        }
    }
}

fn parse(s: &str) -> Result<i32, std::num::ParseIntError> {
    let n = s.parse::<i32>().unwrap();
    let m: i32 = s.trim().parse().unwrap();
    if n == n {
        println!("{}", m);
    }
    Ok(n + m)
}
