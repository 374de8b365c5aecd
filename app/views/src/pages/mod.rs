pub mod accuracy;
pub mod compare;
pub mod gpu;
pub mod guide;
pub mod your_gpu;
