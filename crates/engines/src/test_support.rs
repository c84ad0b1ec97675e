//! Test doubles shared by the engines' unit tests: a scripted [`OutboundHttp`], and a tiny
//! HTTP/1.1 server on 127.0.0.1 that answers canned responses and records what it received.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::thread;

use platform::{HttpError, HttpRequest, HttpResponse, OutboundHttp};

/// An [`OutboundHttp`] that answers through a closure and records every request.
pub struct FakeHttp<F: Fn(&HttpRequest) -> Result<HttpResponse, HttpError>> {
    answer: F,
    pub requests: RefCell<Vec<HttpRequest>>,
}

impl<F: Fn(&HttpRequest) -> Result<HttpResponse, HttpError>> FakeHttp<F> {
    pub fn new(answer: F) -> Self {
        FakeHttp { answer, requests: RefCell::new(Vec::new()) }
    }

    /// How many requests went to a URL ending in `suffix`.
    pub fn count(&self, suffix: &str) -> usize {
        self.requests.borrow().iter().filter(|request| request.url.ends_with(suffix)).count()
    }
}

impl<F: Fn(&HttpRequest) -> Result<HttpResponse, HttpError>> OutboundHttp for FakeHttp<F> {
    fn send(&self, request: HttpRequest) -> Result<HttpResponse, HttpError> {
        let answer = (self.answer)(&request);
        self.requests.borrow_mut().push(request);
        answer
    }
}

/// A response with a JSON body.
pub fn json_response(status: u16, body: &str) -> Result<HttpResponse, HttpError> {
    Ok(HttpResponse {
        status,
        headers: vec![("Content-Type".into(), "application/json".into())],
        body: body.as_bytes().to_vec(),
    })
}

/// What the [`FakeServer`] received.
#[derive(Debug, Clone)]
pub struct Received {
    pub method: String,
    pub path: String,
    /// Header names lower-cased.
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Received {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(key, _)| key == name).map(|(_, value)| value.as_str())
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).expect("a JSON body")
    }
}

/// A one-connection-at-a-time HTTP/1.1 server answering canned (status, body) pairs in order;
/// the last one repeats. It lives until the test process ends.
pub struct FakeServer {
    pub url: String,
    received: Arc<Mutex<Vec<Received>>>,
}

impl FakeServer {
    pub fn start(responses: Vec<(u16, String)>) -> FakeServer {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a free port");
        let url = format!("http://{}", listener.local_addr().unwrap());
        let received = Arc::new(Mutex::new(Vec::new()));
        let log = Arc::clone(&received);
        thread::spawn(move || {
            let mut responses: VecDeque<(u16, String)> = responses.into();
            for stream in listener.incoming() {
                let Ok(stream) = stream else { continue };
                let response = if responses.len() > 1 { responses.pop_front() } else { responses.front().cloned() };
                let (status, body) = response.unwrap_or((500, "no canned response".into()));
                // Logged before answering, so a test that got its answer sees the request.
                if let Some(request) = read_request(&stream) {
                    log.lock().unwrap().push(request);
                    answer(stream, status, &body);
                }
            }
        });
        FakeServer { url, received }
    }

    pub fn received(&self) -> Vec<Received> {
        self.received.lock().unwrap().clone()
    }
}

/// Reads one request from `stream`.
fn read_request(stream: &TcpStream) -> Option<Received> {
    let mut reader = BufReader::new(stream);
    let mut request_line = String::new();
    reader.read_line(&mut request_line).ok()?;
    let mut parts = request_line.split_whitespace();
    let method = parts.next()?.to_owned();
    let path = parts.next()?.to_owned();
    let mut headers = Vec::new();
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).ok()?;
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        let (name, value) = line.split_once(':')?;
        headers.push((name.trim().to_ascii_lowercase(), value.trim().to_owned()));
    }
    let length = headers.iter().find(|(name, _)| name == "content-length").and_then(|(_, value)| value.parse().ok());
    let mut bytes = vec![0; length.unwrap_or(0)];
    reader.read_exact(&mut bytes).ok()?;
    Some(Received { method, path, headers, body: String::from_utf8_lossy(&bytes).into_owned() })
}

fn answer(mut stream: TcpStream, status: u16, body: &str) {
    let response = format!(
        "HTTP/1.1 {status} Canned\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    // A client that hung up is the test's problem to report, not the server's.
    let _ = stream.write_all(response.as_bytes()).and_then(|()| stream.flush());
}

/// A URL on 127.0.0.1 where nothing listens.
pub fn dead_url() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    drop(listener);
    url
}

/// A language of the catalogue by its code, for building requests.
pub fn language(code: &str) -> &'static catalogue::Language {
    catalogue::find(code).unwrap_or_else(|| panic!("{code} is in the catalogue"))
}
