import Foundation
import Testing
import WidgetCore

/// `[remote]` of widgetd.conf.
@Suite("Remote settings")
struct RemoteSettingsTests {
    @Test func offByDefault() throws {
        let settings = try DaemonSettings.parse("")
        #expect(settings.remote == RemoteSettings())
        #expect(settings.remote.broker == nil)
        #expect(settings.remote.topicPrefix == "widgetd")
        #expect(settings.remote.reloadLimit == 24)
        #expect(settings.remote.keepalive == 60)
        #expect(!settings.remote.publish)
        #expect(settings.remote.clientID(hostname: "kiosk7") == "widgetd-kiosk7")
    }

    @Test func everyKeyParses() throws {
        let settings = try DaemonSettings.parse("""
            [remote]
            broker = "mqtt://broker.example:8883"
            topic-prefix = "fleet/kiosks/k7"
            client-id = kiosk-7
            reload-limit = 5
            keepalive = 2m
            ca-file = /etc/widgetd/ca.pem
            cert-file = /etc/widgetd/client.pem
            key-file = /etc/widgetd/client.key
            username = kiosk7
            password-file = /etc/widgetd/mqtt-password
            user = kiosk
            publish = true
            """)
        let remote = settings.remote
        #expect(remote.broker == .tcp(host: "broker.example", port: 8883))
        #expect(remote.topicPrefix == "fleet/kiosks/k7")
        #expect(remote.clientID(hostname: "x") == "kiosk-7")
        #expect(remote.reloadLimit == 5)
        #expect(remote.keepalive == 120)
        #expect(remote.caFile == "/etc/widgetd/ca.pem")
        #expect(remote.certFile == "/etc/widgetd/client.pem")
        #expect(remote.keyFile == "/etc/widgetd/client.key")
        #expect(remote.username == "kiosk7")
        #expect(remote.passwordFile == "/etc/widgetd/mqtt-password")
        #expect(remote.identity == .user("kiosk"))
        #expect(remote.publish)
        #expect(try DaemonSettings.parse("[remote]\nuid = 1001\n").remote.identity == .uid(1001))
    }

    @Test(arguments: [
        ("mqtt://localhost", RemoteBroker.tcp(host: "localhost", port: 1883)),
        ("mqtt://127.0.0.1:1884", .tcp(host: "127.0.0.1", port: 1884)),
        ("mqtt://[::1]:1885", .tcp(host: "::1", port: 1885)),
        ("mqtt+unix:///run/mosquitto/mqtt.sock", .unix(path: "/run/mosquitto/mqtt.sock")),
    ])
    func brokerAddresses(text: String, broker: RemoteBroker) {
        #expect(RemoteBroker(address: text) == broker)
    }

    @Test(arguments: [
        "", "localhost:1883", "http://host", "mqtt://", "mqtt://host:0", "mqtt://host:70000", "mqtt://host:port",
        "mqtt://user@host", "mqtt://host/path", "mqtt+unix://relative.sock", "mqtt://[::1",
    ])
    func badBrokerAddresses(text: String) {
        #expect(RemoteBroker(address: text) == nil)
    }

    @Test(arguments: [
        ("[remote]\nbroker = tcp://x\n", 2, "broker"),
        ("[remote]\npassword = hunter2\n", 2, "password-file"),
        ("[remote]\ntopic-prefix = a/#\n", 2, "topic-prefix"),
        ("[remote]\ntopic-prefix = /a\n", 2, "topic-prefix"),
        ("[remote]\nreload-limit = 0\n", 2, "reload-limit"),
        ("[remote]\nkeepalive = 2s\n", 2, "keepalive"),
        ("[remote]\nca-file = ca.pem\n", 2, "absolute path"),
        ("[remote]\nuser = a b\n", 2, "user"),
        ("[remote]\nuid = -1\n", 2, "uid"),
        ("[remote]\npublish = yes\n", 2, "publish: 'yes' is not true or false"),
        ("[remote]\npublished = true\n", 2, "unknown key 'published' in [remote]"),
        ("[remote]\nbroker = mqtt://h\ncert-file = /c.pem\n", 1, "cert-file and key-file"),
        ("[remote]\nusername = u\npassword-file = /p\n[remote]\nusername = u\n", 3, ""),
        ("\n[remote]\npassword-file = /p\n", 2, "password-file needs username"),
    ])
    func errorsCarryTheLineNumber(text: String, line: Int, mention: String) {
        if mention.isEmpty {
            // A section may be repeated; the checks of the whole section still pass.
            #expect((try? DaemonSettings.parse(text)) != nil)
            return
        }
        #expect {
            try DaemonSettings.parse(text)
        } throws: { error in
            guard let error = error as? SettingsError else { return false }
            return error.line == line && error.reason.contains(mention)
        }
    }
}
