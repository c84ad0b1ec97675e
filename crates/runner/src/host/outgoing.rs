//! Outgoing `wasi:http` requests: checked against the component's `allowed_outbound_hosts`,
//! refused with `HTTP-request-denied` as Spin refuses them, and sent otherwise. Requests to the
//! application itself (a URL without a host, or host `self.alt`) go to the runner's own address.

use std::future::Future;
use std::sync::Arc;

use http::uri::{Authority, Scheme};
use http_body_util::BodyExt;
use wasmtime_wasi_http::{Error, RequestOptions, WasiBody, WasiHttpHooks};

use super::client::HttpClient;
use crate::manifest::outbound::{AllowedHosts, Destination, is_self_request};

type ResponseFuture = Box<
    dyn Future<Output = Result<(http::Response<WasiBody>, Box<dyn Future<Output = Result<(), Error>> + Send>), Error>>
        + Send,
>;

/// The `wasi:http` hooks of one request's store.
pub struct OutboundHooks {
    component: Arc<str>,
    allowed: Arc<AllowedHosts>,
    self_origin: Arc<str>,
    client: HttpClient,
}

impl OutboundHooks {
    pub fn new(component: Arc<str>, allowed: Arc<AllowedHosts>, self_origin: Arc<str>, client: HttpClient) -> Self {
        OutboundHooks { component, allowed, self_origin, client }
    }

    /// Sends `request` to the application itself, if the component may.
    fn to_self(&self, mut request: http::Request<WasiBody>) -> Result<http::Request<WasiBody>, Error> {
        let origin: http::Uri = self.self_origin.parse().map_err(|_| Error::HttpRequestUriInvalid)?;
        let authority: Authority = origin.authority().cloned().ok_or(Error::HttpRequestUriInvalid)?;
        let mut parts = request.uri().clone().into_parts();
        parts.scheme = Some(origin.scheme().cloned().unwrap_or(Scheme::HTTP));
        parts.authority = Some(authority.clone());
        if parts.path_and_query.is_none() {
            parts.path_and_query = Some(http::uri::PathAndQuery::from_static("/"));
        }
        *request.uri_mut() = http::Uri::from_parts(parts).map_err(|_| Error::HttpRequestUriInvalid)?;
        let host = http::HeaderValue::from_str(authority.as_str()).map_err(|_| Error::HttpRequestUriInvalid)?;
        request.headers_mut().insert(http::header::HOST, host);
        Ok(request)
    }
}

impl WasiHttpHooks for OutboundHooks {
    fn send_request(
        &mut self,
        request: http::Request<WasiBody>,
        options: Option<RequestOptions>,
        _response_outcome: Box<dyn Future<Output = Result<(), Error>> + Send>,
    ) -> ResponseFuture {
        let uri = request.uri();
        let scheme = uri.scheme_str().unwrap_or("https").to_owned();
        let host = uri.host().unwrap_or_default().to_owned();
        let destination = Destination { scheme: &scheme, host: &host, port: uri.port_u16() };
        let allowed = self.allowed.allows(&destination);
        let request = if !allowed {
            let shown = if is_self_request(&host) {
                "the application itself".to_owned()
            } else {
                match uri.port_u16() {
                    Some(port) => format!("{scheme}://{host}:{port}"),
                    None => format!("{scheme}://{host}"),
                }
            };
            tracing::warn!(
                component = %self.component,
                "outbound request to {shown} refused: it is not in the component's allowed_outbound_hosts {}",
                self.allowed
            );
            return Box::new(async { Err(Error::HttpRequestDenied) });
        } else if is_self_request(&host) {
            match self.to_self(request) {
                Ok(request) => request,
                Err(error) => return Box::new(async move { Err(error) }),
            }
        } else {
            request
        };
        if request.uri().scheme() == Some(&Scheme::HTTP) {
            let client = self.client.clone();
            return Box::new(async move {
                let response = client.send(request, options).await?;
                Ok((response, Box::new(async { Ok(()) }) as Box<dyn Future<Output = Result<(), Error>> + Send>))
            });
        }
        Box::new(async move {
            let (response, io) = wasmtime_wasi_http::default_send_request(request, options).await?;
            Ok((
                response.map(BodyExt::boxed_unsync),
                Box::new(io) as Box<dyn Future<Output = Result<(), Error>> + Send>,
            ))
        })
    }
}
