use rowkey::field::{HashKey, Hashed};

fn main() {
    // Four bytes of hash would make two addresses share a key too often.
    let key = HashKey::new(b"secret").unwrap();
    let _: Hashed<4> = Hashed::new(&key, "alice@example.com");
}
