//! The limits of style rule lists, from the API reference where it names them.

/// Characters in a list's name.
pub const MAX_NAME_CHARS: usize = 1024;
/// Custom instructions in one list.
pub const MAX_INSTRUCTIONS: usize = 200;
/// Characters in an instruction's label.
pub const MAX_LABEL_CHARS: usize = 100;
/// Characters in an instruction's prompt.
pub const MAX_PROMPT_CHARS: usize = 300;
/// Lists one subscription may hold (the reference names none; this keeps a tenant's listing
/// and storage bounded).
pub const MAX_LISTS: i64 = 1000;
/// `page_size` of a listing: 1 to this; 10 when not given.
pub const MAX_PAGE_SIZE: i64 = 25;
pub const DEFAULT_PAGE_SIZE: i64 = 10;
