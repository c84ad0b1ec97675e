//! Host bindings for the Spin interfaces, generated from the WIT files `build.rs` collects.

include!(concat!(env!("OUT_DIR"), "/bindings.rs"));
