package class

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"strings"
	"time"

	"ringside/app/service"
)

// Certificate is the database's own TLS certificate: made once, kept in
// the database (class settings), so the fingerprint on the slips stays
// true for every lesson.
func Certificate(svc *service.Service) (tls.Certificate, string, error) {
	certPEM, err := svc.ClassSetting("tls_cert")
	if err != nil {
		return tls.Certificate{}, "", err
	}
	keyPEM, err := svc.ClassSetting("tls_key")
	if err != nil {
		return tls.Certificate{}, "", err
	}
	if certPEM == "" || keyPEM == "" {
		if certPEM, keyPEM, err = makeCertificate(); err != nil {
			return tls.Certificate{}, "", err
		}
		if err := svc.SetClassSetting("tls_cert", certPEM); err != nil {
			return tls.Certificate{}, "", err
		}
		if err := svc.SetClassSetting("tls_key", keyPEM); err != nil {
			return tls.Certificate{}, "", err
		}
	}
	c, err := tls.X509KeyPair([]byte(certPEM), []byte(keyPEM))
	if err != nil {
		return tls.Certificate{}, "", fmt.Errorf("read the class server's certificate: %w", err)
	}
	return c, Fingerprint(c.Certificate[0]), nil
}

// Fingerprint is a certificate's SHA-256 in the usual colon-separated hex,
// as slips print it and ringside submit --fingerprint takes it.
func Fingerprint(der []byte) string {
	sum := sha256.Sum256(der)
	h := strings.ToUpper(hex.EncodeToString(sum[:]))
	var parts []string
	for i := 0; i < len(h); i += 2 {
		parts = append(parts, h[i:i+2])
	}
	return strings.Join(parts, ":")
}

// NormalFingerprint is a fingerprint as typed (any case, colons, spaces
// or none) in the form Fingerprint writes.
func NormalFingerprint(f string) string {
	h := strings.ToUpper(strings.NewReplacer(":", "", " ", "", "-", "").Replace(strings.TrimSpace(f)))
	var parts []string
	for i := 0; i+1 < len(h); i += 2 {
		parts = append(parts, h[i:i+2])
	}
	return strings.Join(parts, ":")
}

func makeCertificate() (certPEM, keyPEM string, err error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return "", "", fmt.Errorf("make the class server's key: %w", err)
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 120))
	if err != nil {
		return "", "", fmt.Errorf("make the class server's certificate: %w", err)
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{CommonName: "Ringside class server", Organization: []string{"Ringside"}},
		NotBefore:    now.Add(-time.Hour),
		// Students check the fingerprint, not a chain: a long life keeps
		// the slips valid for years of lessons.
		NotAfter:    now.AddDate(10, 0, 0),
		KeyUsage:    x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		DNSNames:    []string{"localhost"},
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return "", "", fmt.Errorf("make the class server's certificate: %w", err)
	}
	kb, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return "", "", fmt.Errorf("keep the class server's key: %w", err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})),
		string(pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb})), nil
}
