//! The quickstart's key type through its schema alone: raw keys read back and checked by
//! `Reading::SCHEMA`, and the Bigtable row key schema that lets GoogleSQL read the key's
//! fields by name.
//!
//! `cargo run --example schema --features bigtable-schema` (the feature prints the schema file)

use rowkey::RowKey;

/// The quickstart's key: `bucket#device_type#device_id#reversed_timestamp`, newest first,
/// writes spread over 16 buckets by device.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(delimited = "#", salt(buckets = 16, from = [device_id]))]
struct Reading {
    device_type: String,
    device_id: String,
    #[rowkey(reverse)]
    ts_millis: i64,
}

fn main() -> rowkey::Result<()> {
    let reading = Reading { device_type: "meter".into(), device_id: "4c410523".into(), ts_millis: 1_588_291_200_000 };
    let key = reading.to_key()?;
    println!("key:       {key}");
    println!("inspected: {}", Reading::SCHEMA.inspect(&key)?);

    // Bytes that stop matching the schema: the error names the field, the byte and what
    // was expected there.
    let mut typo = key.clone().into_vec();
    let last = typo.len() - 1;
    typo[last] = b'O';
    println!("a letter in the time:  {}", Reading::SCHEMA.inspect(&typo).unwrap_err());
    let mut moved = key.into_vec();
    moved[1] = if moved[1] == b'9' { b'8' } else { b'9' };
    println!("another bucket:        {}", Reading::SCHEMA.inspect(&moved).unwrap_err());
    println!();

    print_bigtable_schema()
}

#[cfg(feature = "bigtable-schema")]
fn print_bigtable_schema() -> rowkey::Result<()> {
    use rowkey::schema::ExportOptions;

    // The reversed time is 19 digits of text, and Bigtable has no type that reads decimal
    // text as a number: the export says so unless asked to describe it as a STRING.
    if let Err(err) = Reading::SCHEMA.to_bigtable_json() {
        println!("by default: {err}\n");
    }
    let json = Reading::SCHEMA.to_bigtable_json_with(&ExportOptions::new().text_as_string())?;
    println!("the row key schema, with text fields as STRING (reading.json):\n{json}");
    println!(
        "\nset it on the table:\n  gcloud beta bigtable tables update readings --instance=INSTANCE \\\n    \
         --row-key-schema-definition-file=reading.json --row-key-schema-pre-encoded-bytes"
    );
    println!(
        "\nthen read the key's fields by name:\n  \
         SELECT bucket, device_type, device_id, {} - CAST(ts_millis AS INT64) AS ts_millis\n  \
         FROM readings\n  WHERE device_type = 'meter' AND device_id = '4c410523'",
        i64::MAX
    );
    Ok(())
}

#[cfg(not(feature = "bigtable-schema"))]
fn print_bigtable_schema() -> rowkey::Result<()> {
    println!("(run with --features bigtable-schema to print the Bigtable row key schema)");
    Ok(())
}
