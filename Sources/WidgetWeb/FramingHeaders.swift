import HTTPTypes
import Hummingbird

/// Headers on every answer that keep the page out of other sites' frames: a page that framed
/// the host could lay its own content over the controls and have a visitor click them
/// (clickjacking); the host has no login, so the click would carry the host's rights.
enum FramingHeaders {
    static let frameOptions = "DENY"
    /// `frame-ancestors 'none'` refuses every frame (browsers that know CSP ignore
    /// `X-Frame-Options` then; older ones follow it). The page runs only its own `/app.js`
    /// (no inline script, no `eval`), so `script-src 'self'` costs it nothing and keeps a
    /// template's markup from running script; templates keep their `<style>` and images.
    static let contentSecurityPolicy = "frame-ancestors 'none'; script-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'"

    static let frameOptionsName = HTTPField.Name("X-Frame-Options")!
    static let contentSecurityPolicyName = HTTPField.Name("Content-Security-Policy")!

    static func add(to headers: inout HTTPFields) {
        headers[frameOptionsName] = frameOptions
        headers[contentSecurityPolicyName] = contentSecurityPolicy
    }

    /// The same headers as raw HTTP lines, for the answer written below the router (`503`).
    static let lines = "X-Frame-Options: \(frameOptions)\r\nContent-Security-Policy: \(contentSecurityPolicy)\r\n"
}

/// The outermost middleware: every answer of the router, refusals and errors included, gets
/// the framing headers, and an error a route throws is answered in the page's JSON form.
struct FramingHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as HTTPError {
            response = WebRoutes.failure(error.status.code, error.body ?? error.status.reasonPhrase)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        } catch let error as QueryError {
            response = WebRoutes.failure(400, error.description)
        } catch {
            response = WebRoutes.failure(500, "the web host failed: \(error)")
        }
        FramingHeaders.add(to: &response.headers)
        return response
    }
}
