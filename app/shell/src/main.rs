fn main() {
    web::install_panic_panel();
    wasm_bindgen_futures::spawn_local(shell::start());
}
