//! wasm-bindgen exports (being written)
