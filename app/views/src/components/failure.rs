//! What a view shows when part of it failed: the view says so in its own place and the
//! rest of the page keeps working.

use catalog::share::Lang;
use leptos::error::Errors;

use web::i18n::{fill, tr, Key};

/// The sentence an error boundary shows for its errors.
pub fn text(lang: Lang, errors: &Errors) -> String {
    let why = errors
        .iter()
        .map(|(_, e)| e.to_string())
        .collect::<Vec<_>>()
        .join("; ");
    fill(tr(lang, Key::ViewFailed), &[("why", why)])
}
