fn main() {
    app::install_panic_panel();
    wasm_bindgen_futures::spawn_local(app::start());
}
