// A format without float fields: a float field type is a compile error that names the
// format, the type and what to store instead.
use rowkey::field::{FieldType, Floats, Sink, ValueFormat, WriteField};

struct Digits;

impl ValueFormat for Digits {
    type Input<'r, 'de>
        = &'de [u8]
    where
        'de: 'r;
}

struct Celsius(f64);

impl FieldType for Celsius {}

impl<F: Floats<f64>> WriteField<F> for Celsius {
    fn write<S: Sink>(&self, out: &mut S) -> rowkey::Result<()> {
        F::write_float(self.0, out)
    }
}

fn write<F: rowkey::field::ValueFormat, T: WriteField<F>>(value: &T) -> Vec<u8> {
    let mut out = Vec::new();
    value.write(&mut out).unwrap();
    out
}

fn main() {
    write::<Digits, _>(&Celsius(21.5));
}
