fn main() {
    app::install_panic_panel();
    leptos::mount::mount_to_body(app::App);
}
