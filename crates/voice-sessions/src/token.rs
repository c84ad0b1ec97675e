//! Session tokens: short-lived, signed, and usable once.
//!
//! A token names its session, its generation (the first token of a session is generation 1,
//! each reconnect's token the next) and the moment it stops opening connections, and carries
//! an HMAC-SHA-256 of all three under the deployment's token secret (variable
//! [`TOKEN_SECRET_VARIABLE`]): `v1.<session>.<generation>.<expires, Unix ms>.<MAC, hex>`. It is
//! opaque to clients. Its single use is the session record's (`store.rs`): a signature proves
//! only that this deployment issued it.

use hmac::{Hmac, KeyInit, Mac};
use platform::{Id, Variables};
use sha2::Sha256;

/// The variable holding the secret tokens are signed with.
pub const TOKEN_SECRET_VARIABLE: &str = "voice_token_secret";

/// How long a token may open a connection after it was issued (milliseconds).
pub const TOKEN_LIFETIME_MS: i64 = 60_000;

/// What a valid token says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    pub session: Id,
    pub generation: i64,
    pub expires_ms: i64,
}

/// Why a token was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TokenError {
    #[error("The token is not valid.")]
    Invalid,
    #[error("The token has expired: ask for a new one with a reconnect.")]
    Expired,
}

/// The secret tokens are signed with; at least 16 bytes, or real-time voice is not set up.
#[derive(Clone)]
pub struct TokenSecret(Vec<u8>);

impl TokenSecret {
    pub fn new(secret: &str) -> Option<TokenSecret> {
        (secret.len() >= 16).then(|| TokenSecret(secret.as_bytes().to_vec()))
    }

    /// The secret from [`TOKEN_SECRET_VARIABLE`], if it is set.
    pub fn configured(vars: &dyn Variables) -> Option<TokenSecret> {
        vars.get(TOKEN_SECRET_VARIABLE).ok().flatten().and_then(|secret| TokenSecret::new(secret.trim()))
    }

    fn mac(&self, body: &str) -> Hmac<Sha256> {
        let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(&self.0).expect("HMAC takes a key of any length");
        mac.update(body.as_bytes());
        mac
    }

    /// The token's text.
    pub fn sign(&self, token: &Token) -> String {
        let body = format!("v1.{}.{}.{}", token.session, token.generation, token.expires_ms);
        let mac = self.mac(&body).finalize().into_bytes();
        let hex: String = mac.iter().map(|byte| format!("{byte:02x}")).collect();
        format!("{body}.{hex}")
    }

    /// What a token says, if this secret signed it; its expiry is not checked (see [`Token::fresh`]).
    pub fn verify(&self, text: &str) -> Result<Token, TokenError> {
        let text = text.trim();
        let (body, mac) = text.rsplit_once('.').ok_or(TokenError::Invalid)?;
        let mac = decode_hex(mac).ok_or(TokenError::Invalid)?;
        self.mac(body).verify_slice(&mac).map_err(|_| TokenError::Invalid)?;
        let mut parts = body.split('.');
        let (Some("v1"), Some(session), Some(generation), Some(expires), None) =
            (parts.next(), parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(TokenError::Invalid);
        };
        Ok(Token {
            session: Id::parse(session).ok_or(TokenError::Invalid)?,
            generation: generation.parse().map_err(|_| TokenError::Invalid)?,
            expires_ms: expires.parse().map_err(|_| TokenError::Invalid)?,
        })
    }
}

impl Token {
    /// The token if it may still open a connection at `now_ms`.
    pub fn fresh(self, now_ms: i64) -> Result<Token, TokenError> {
        if now_ms < self.expires_ms { Ok(self) } else { Err(TokenError::Expired) }
    }
}

fn decode_hex(text: &str) -> Option<Vec<u8>> {
    if text.len() != 64 || !text.bytes().all(|byte| byte.is_ascii_hexdigit()) {
        return None;
    }
    (0..text.len()).step_by(2).map(|at| u8::from_str_radix(&text[at..at + 2], 16).ok()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secret() -> TokenSecret {
        TokenSecret::new("a secret of at least sixteen bytes").unwrap()
    }

    fn token() -> Token {
        Token { session: Id::parse("4f911080-cfe2-41d4-8269-0e6ec15a0354").unwrap(), generation: 2, expires_ms: 1_000 }
    }

    #[test]
    fn a_signed_token_verifies_and_says_what_it_was_given() {
        let text = secret().sign(&token());
        assert!(text.starts_with("v1.4f911080-cfe2-41d4-8269-0e6ec15a0354.2.1000."), "{text}");
        assert_eq!(secret().verify(&text), Ok(token()));
        assert_eq!(secret().verify(&text).unwrap().fresh(999), Ok(token()));
        assert_eq!(secret().verify(&text).unwrap().fresh(1_000), Err(TokenError::Expired));
    }

    #[test]
    fn a_changed_token_or_another_secret_is_refused() {
        let text = secret().sign(&token());
        let other = TokenSecret::new("another secret, sixteen bytes or more").unwrap();
        assert_eq!(other.verify(&text), Err(TokenError::Invalid));
        let later = text.replace(".2.1000.", ".2.9000.");
        assert_eq!(secret().verify(&later), Err(TokenError::Invalid));
        let next = text.replace(".2.1000.", ".3.1000.");
        assert_eq!(secret().verify(&next), Err(TokenError::Invalid));
        for junk in ["", "v1", "v1.x.1.1.00", &text[..text.len() - 1], &format!("{text}0")] {
            assert_eq!(secret().verify(junk), Err(TokenError::Invalid), "{junk}");
        }
    }

    #[test]
    fn a_short_secret_is_no_secret() {
        assert!(TokenSecret::new("short").is_none());
        let vars: std::collections::HashMap<String, String> =
            [(TOKEN_SECRET_VARIABLE.to_owned(), "  ".to_owned())].into();
        assert!(TokenSecret::configured(&vars).is_none());
    }
}
