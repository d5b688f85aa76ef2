import Logging
import OpenClawProtocol

/// What the `connect` request proves and presents, and the device tokens: stored per gateway (its
/// ``GatewayURL/storageIdentity``: never the query, which may hold a secret), device and role.
extension GatewayConnection {
    func connectParams(
        identity: DeviceIdentity, challenge: ConnectChallenge, scopes: [String], useStoredDeviceToken: Bool = false
    ) throws(DeviceIdentityError)
        -> ConnectParams
    {
        let storedToken = try? tokenStore.load(tokenKey(deviceId: identity.deviceId))
        var auth = ConnectAuth()
        switch configuration.credential {
        // With a shared secret, only the secret is sent, as upstream clients do. The one exception: the
        // gateway refused it and offered a retry with this device's own token, sent beside it (see
        // `ConnectionMachine.CredentialStep`); the person is told, since the secret still needs fixing.
        case .token(let token):
            auth.token = token
            if useStoredDeviceToken { auth.deviceToken = storedToken?.token }
        case .password(let password): auth.password = password
        // Pairing with a setup code: only the bootstrap token (a stored device token would be for an
        // earlier pairing of this address; the code is the person's fresh intent).
        case .bootstrapToken(let token): auth.bootstrapToken = token
        // Without a shared secret, the paired device signs in with its own token (in `auth.token`, the
        // field every gateway accepts; it falls back to checking device tokens).
        case .none: auth.token = storedToken?.token
        }
        let proof = try identity.proof(
            for: challenge,
            client: configuration.client,
            role: configuration.role,
            scopes: scopes,
            auth: auth
        )
        return ConnectParams(
            minProtocol: configuration.offeredProtocols.lowerBound,
            maxProtocol: configuration.offeredProtocols.upperBound,
            client: configuration.client,
            role: configuration.role,
            scopes: scopes,
            caps: configuration.caps,
            device: proof,
            auth: auth.isEmpty ? nil : auth,
            locale: configuration.locale,
            userAgent: configuration.userAgent,
            commands: configuration.nodeDeclaration?.commands,
            permissions: configuration.nodeDeclaration?.permissions,
            pathEnv: configuration.nodeDeclaration?.pathEnv
        )
    }

    /// Whether a refused shared token could be retried with this device's saved token, as upstream
    /// clients do when the gateway offers it (`GatewayError.AuthFailure.offersDeviceTokenRetry`, which
    /// the machine checks): only with a token of our own that differs from the refused one, and only
    /// where the device token cannot be read by someone in between (loopback or TLS), since it is sent
    /// as it is.
    func savedDeviceTokenUsable() -> Bool {
        guard configuration.retriesWithDeviceToken,
            case .token(let configured) = configuration.credential,
            configuration.url.isSecure || configuration.url.isLoopback,
            let identity = try? identityStore.loadOrCreate(),
            let stored = try? tokenStore.load(tokenKey(deviceId: identity.deviceId))
        else { return false }
        return stored.token != configured
    }

    func tokenKey(deviceId: String) -> DeviceTokenKey {
        DeviceTokenKey(gateway: configuration.url.storageIdentity, deviceId: deviceId, role: configuration.role)
    }

    func rememberDeviceToken(_ record: DeviceTokenRecord, deviceId: String) {
        do {
            try tokenStore.save(record, for: tokenKey(deviceId: deviceId))
        } catch {
            logger.warning("could not save the device token", metadata: ["error": "\(error.description)"])
        }
    }

    /// After a setup-code (bootstrap) handshake: the other roles' tokens the gateway handed over
    /// (`hello-ok.auth.deviceTokens`). Kept only where nobody could have read them on the way: over
    /// `wss://`, on this machine or on the local network (as upstream clients do).
    func rememberHandoffTokens(_ tokens: [HelloOk.IssuedDeviceToken], deviceId: String) {
        guard case .bootstrapToken = configuration.credential else { return }
        let url = configuration.url
        guard url.isSecure || url.isLoopback || url.isLocalNetwork else {
            logger.warning("device tokens handed over in cleartext beyond the local network were not kept")
            return
        }
        for issued in tokens {
            let key = DeviceTokenKey(gateway: url.storageIdentity, deviceId: deviceId, role: issued.role)
            let record = DeviceTokenRecord(
                token: issued.deviceToken, role: issued.role, scopes: issued.scopes, issuedAtMs: issued.issuedAtMs)
            do {
                try tokenStore.save(record, for: key)
            } catch {
                logger.warning("could not save a device token", metadata: ["error": "\(error.description)"])
            }
        }
    }

    func forgetDeviceToken(deviceId: String) {
        do {
            try tokenStore.remove(tokenKey(deviceId: deviceId))
        } catch {
            logger.warning("could not remove the stale device token", metadata: ["error": "\(error.description)"])
        }
    }
}
