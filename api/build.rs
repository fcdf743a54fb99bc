//! Builds every shipped label file (wasm-core/labels/*.json) into the binary: writes a list of
//! `(file name, include_str!)` pairs, so a new area's file needs no code change.

use std::{env, fs, path::Path};

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../wasm-core/labels");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<_> = fs::read_dir(&dir)
        .expect("wasm-core/labels")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let mut out = String::from("&[\n");
    for path in &files {
        println!("cargo:rerun-if-changed={}", path.display());
        let name = path.file_name().unwrap().to_string_lossy();
        out.push_str(&format!(
            "    ({name:?}, include_str!({:?})),\n",
            path.canonicalize().unwrap().display().to_string()
        ));
    }
    out.push_str("]\n");
    let dest = Path::new(&env::var("OUT_DIR").unwrap()).join("label_files.rs");
    fs::write(dest, out).unwrap();
}
